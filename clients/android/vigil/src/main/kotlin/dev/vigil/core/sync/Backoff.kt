package dev.vigil.core.sync

import dev.vigil.core.api.Timestamps
import kotlin.math.floor
import kotlin.random.Random

/**
 * The client delivery policy shared by every Vigil library (clients/POLICY.md): what an answer means, how long to
 * wait and how batches shrink. The same numbers as `@vigil/client-core` (the browser and Node libraries); the
 * tests run clients/policy-cases.json against this object, so a drift on either side fails a test.
 */
object DeliveryPolicy {
    const val BASE_DELAY_MILLIS = 1_000L
    const val MULTIPLIER = 2
    /** A device that failed for long is back within a minute of the server's recovery. */
    const val MAX_DELAY_MILLIS = 60_000L
    /** Longest Retry-After honoured; a longer one (a misconfigured proxy) is cut to this. */
    const val RETRY_AFTER_CAP_MILLIS = 300_000L
    /** Retryable answers an event may get before it is given up; failures without an answer do not count. */
    const val MAX_ATTEMPTS = 20
    /** POST /events/batch limits (the server's: 100 events, 1 MiB). */
    const val MAX_BATCH_EVENTS = 100
    const val MAX_BATCH_BYTES = 1_000_000
    /** Events kept on the device; beyond it the oldest are dropped and counted. */
    const val QUEUE_BOUND = 10_000
    /** An event is sent when tracked; the queue also syncs on reconnect and periodically. */
    const val FLUSH_INTERVAL_MILLIS = 0L
    /**
     * HTTP timeouts (Android; VigilConfig can change them): a server that accepts and never answers holds a
     * `track` no longer than connect + read, and the event stays queued.
     */
    const val CONNECT_TIMEOUT_MILLIS = 10_000
    const val READ_TIMEOUT_MILLIS = 15_000

    enum class Verdict { DONE, RETRY, SHRINK, DROP }

    /** [status] is null when no answer came (offline, timeout). */
    fun classify(status: Int?): Verdict = when {
        status == null -> Verdict.RETRY
        status in 200..299 -> Verdict.DONE
        status == 413 -> Verdict.SHRINK
        isRetryable(status) -> Verdict.RETRY
        else -> Verdict.DROP
    }

    fun isRetryable(status: Int) = status == 408 || status == 429 || status >= 500

    /**
     * Exponential backoff with equal jitter: a wait is uniform in [½ step, step]. Half fixed keeps a failing server
     * from being hammered; half random spreads devices that failed together. floor, as in TypeScript, so both
     * languages give the same milliseconds.
     *
     * @param failure 1 for the first failure in a row. @param random in [0, 1).
     */
    fun backoffMillis(
        failure: Int,
        random: Double,
        baseMillis: Long = BASE_DELAY_MILLIS,
        maxMillis: Long = MAX_DELAY_MILLIS,
    ): Long {
        val exponent = (failure - 1).coerceIn(0, 62)
        val step = minOf(maxMillis.toDouble(), baseMillis.toDouble() * Math.pow(MULTIPLIER.toDouble(), exponent.toDouble()))
        val r = random.coerceIn(0.0, 1.0)
        return floor(step / 2 + step / 2 * r).toLong()
    }

    /** The backoff, but never less than what the server asked for (Retry-After is a floor, capped). */
    fun retryDelayMillis(
        failure: Int,
        random: Double,
        retryAfterMillis: Long?,
        baseMillis: Long = BASE_DELAY_MILLIS,
        maxMillis: Long = MAX_DELAY_MILLIS,
    ): Long = maxOf(capRetryAfter(retryAfterMillis) ?: 0L, backoffMillis(failure, random, baseMillis, maxMillis))

    fun capRetryAfter(retryAfterMillis: Long?): Long? = retryAfterMillis?.coerceIn(0L, RETRY_AFTER_CAP_MILLIS)

    /** The batch limit after a 413: half (rounded down), or null when a single event was refused (drop it). */
    fun shrinkBatch(sent: Int): Int? = if (sent > 1) sent / 2 else null

    sealed class Decision {
        object Done : Decision()
        data class Retry(val delayMillis: Long, val countsAsAttempt: Boolean) : Decision()
        object GiveUp : Decision()
        data class Shrink(val batchLimit: Int) : Decision()
        data class Drop(val tooLarge: Boolean) : Decision()
    }

    /**
     * The whole policy for one answer, as the shared cases state it.
     *
     * @param failure this failure's number in a row (drives the backoff).
     * @param attempts retryable answers the event has had, this one included (drives giving up).
     */
    fun decide(
        status: Int?,
        retryAfter: String?,
        nowMillis: Long,
        failure: Int,
        attempts: Int,
        random: Double,
        batchSize: Int,
    ): Decision = when (classify(status)) {
        Verdict.DONE -> Decision.Done
        Verdict.DROP -> Decision.Drop(tooLarge = false)
        Verdict.SHRINK -> shrinkBatch(batchSize)?.let { Decision.Shrink(it) } ?: Decision.Drop(tooLarge = true)
        Verdict.RETRY -> when {
            status == null -> Decision.Retry(backoffMillis(failure, random), countsAsAttempt = false)
            attempts >= MAX_ATTEMPTS -> Decision.GiveUp
            else -> Decision.Retry(
                retryDelayMillis(failure, random, Timestamps.retryAfterMillis(retryAfter, nowMillis)),
                countsAsAttempt = true,
            )
        }
    }
}

/** Counts failures in a row and turns them into waits by [DeliveryPolicy]; randomness injected for tests. */
class Backoff(
    private val baseMillis: Long = DeliveryPolicy.BASE_DELAY_MILLIS,
    private val maxMillis: Long = DeliveryPolicy.MAX_DELAY_MILLIS,
    private val random: Random = Random.Default,
) {
    private var failures = 0

    /** The wait after one more failure; [retryAfterMillis] (from the server) is a floor, capped at 5 minutes. */
    @Synchronized
    fun nextDelayMillis(retryAfterMillis: Long?): Long {
        failures++
        return DeliveryPolicy.retryDelayMillis(failures, random.nextDouble(), retryAfterMillis, baseMillis, maxMillis)
    }

    @Synchronized
    fun reset() {
        failures = 0
    }
}
