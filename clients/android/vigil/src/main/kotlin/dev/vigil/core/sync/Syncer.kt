package dev.vigil.core.sync

import dev.vigil.core.api.Problem
import dev.vigil.core.api.VigilApi
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.platform.Clock
import dev.vigil.core.platform.Logger
import dev.vigil.core.queue.EventQueue
import dev.vigil.core.result.VigilError
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock

/**
 * Sends the queue through POST /events/batch, oldest first.
 *
 * An event leaves the queue only once the server answered for it (accepted, or rejected for good). Killed
 * mid-request, the event is still queued and is resent with the same event_id and timestamp, which the server
 * stores once. Classification, by the shared client policy ([DeliveryPolicy], clients/POLICY.md): 2xx per-item;
 * 408/429/5xx and no answer retry later (Retry-After honoured); 413 halves the batch; any other 4xx drops the batch
 * with a reported error. An event is given up after [DeliveryPolicy.MAX_ATTEMPTS] retryable answers; time offline
 * does not count.
 *
 * A live event (the one `track` is waiting for) goes on its own request through [sendLive], never behind the
 * backlog: it is [claim]ed before it is queued, so a drain running meanwhile skips it, and `track` answers within
 * its own request's time however many events wait. The backlog drains separately, in the background ([sync]).
 */
internal class Syncer(
    private val queue: EventQueue,
    private val api: VigilApi,
    private val clock: Clock,
    private val logger: Logger,
    private val backoff: Backoff,
    private val maxBatchSize: Int,
    private val onAccepted: (eventId: String, insights: Map<String, Any?>) -> Unit,
    private val onSynced: (atMillis: Long) -> Unit,
) {
    private val mutex = Mutex()
    /** Events a live send owns; the drain leaves them alone. */
    private val claimed: MutableSet<String> = java.util.Collections.synchronizedSet(HashSet())
    private val outcomes = object : LinkedHashMap<String, Outcome>() {
        override fun removeEldestEntry(eldest: MutableMap.MutableEntry<String, Outcome>?) = size > 512
    }

    sealed class Outcome {
        data class Accepted(val insights: Map<String, Any?>) : Outcome()
        data class Rejected(val error: VigilError) : Outcome()
    }

    /** The server's answer for [eventId] if a recent sync (by anyone) got one. */
    fun outcomeOf(eventId: String): Outcome? = synchronized(outcomes) { outcomes[eventId] }

    /** Blocking I/O: call from a background dispatcher. */
    suspend fun sync(): SyncReport = mutex.withLock { syncLocked() }

    /** Reserves [eventId] for [sendLive]; call before the event is queued, so no drain can pick it up first. */
    fun claim(eventId: String) {
        claimed += eventId
    }

    /** Gives a claimed event back to the drain (it was not sent live, e.g. offline). */
    fun release(eventId: String) {
        claimed -= eventId
    }

    /**
     * Sends one queued, [claim]ed event alone and releases it. Returns its outcome, or null when it stays queued
     * for the drain (no answer, or the server asked to retry). Blocking I/O.
     */
    fun sendLive(event: PendingEvent): Outcome? {
        try {
            when (val outcome = api.postBatch(listOf(event))) {
                is VigilApi.BatchOutcome.Delivered -> {
                    val rejected = LinkedHashMap<String, VigilError>()
                    val retry = settle(listOf(event), outcome.items, rejected)
                    onSynced(clock.nowMillis())
                    if (retry.isNotEmpty()) countAttempt(retry, VigilError(VigilError.Kind.UNAVAILABLE, "server asked to retry"), rejected)
                }
                is VigilApi.BatchOutcome.Retry -> {
                    if (outcome.status != null) {
                        countAttempt(listOf(event), VigilError(VigilError.Kind.UNAVAILABLE, outcome.reason, outcome.status), LinkedHashMap())
                    }
                    logger.log(Logger.Level.WARN, "event ${event.id} queued: ${outcome.reason}", null)
                }
                VigilApi.BatchOutcome.TooLarge -> dropBatch(listOf(event.id), tooLarge(), LinkedHashMap())
                is VigilApi.BatchOutcome.Rejected -> dropBatch(listOf(event.id), outcome.problem.toError(), LinkedHashMap())
            }
        } finally {
            release(event.id)
        }
        return outcomeOf(event.id)
    }

    /** Applies a 2xx batch answer item by item; returns the events the server asked to retry. */
    private fun settle(batch: List<PendingEvent>, items: List<VigilApi.Item>, rejected: MutableMap<String, VigilError>): List<PendingEvent> {
        val done = ArrayList<String>()
        val retry = ArrayList<PendingEvent>()
        batch.zip(items).forEach { (event, item) ->
            when (item) {
                is VigilApi.Item.Accepted -> {
                    done += event.id
                    remember(event.id, Outcome.Accepted(item.insights))
                    onAccepted(event.id, item.insights)
                }
                is VigilApi.Item.Rejected -> {
                    done += event.id
                    val error = item.problem.toError()
                    rejected[event.id] = error
                    remember(event.id, Outcome.Rejected(error))
                    logger.log(Logger.Level.ERROR, "event ${event.id} (${event.name}) rejected: ${error.message}", null)
                }
                is VigilApi.Item.Retry -> retry += event
            }
        }
        queue.remove(done)
        return retry
    }

    /**
     * The oldest events not claimed by a live send. The queue is read before the claims: an event is claimed before
     * it is queued, so one this read finds is already in the claims read after it. (Claims read first missed an event
     * claimed and queued in between, and the drain sent it a second time.)
     */
    private fun nextBatch(limit: Int): List<PendingEvent> {
        val peeked = queue.peek(limit + claimed.size)
        val skip = synchronized(claimed) { HashSet(claimed) }
        return peeked.filterNot { it.id in skip }.take(limit)
    }

    private fun tooLarge() =
        Problem(413, "event too large", "the server refused a single event as too large", "payload_too_large").toError()

    private fun syncLocked(): SyncReport {
        var batchSize = maxBatchSize
        var delivered = 0
        val rejected = LinkedHashMap<String, VigilError>()
        var lastError: VigilError? = null
        while (true) {
            val batch = nextBatch(batchSize)
            if (batch.isEmpty()) {
                backoff.reset()
                return SyncReport(delivered, rejected, 0, null, lastError)
            }
            when (val outcome = api.postBatch(batch)) {
                is VigilApi.BatchOutcome.Delivered -> {
                    val rejectedBefore = rejected.size
                    val retry = settle(batch, outcome.items, rejected)
                    delivered += batch.size - retry.size - (rejected.size - rejectedBefore)
                    if (rejected.size > rejectedBefore) lastError = rejected.values.last()
                    onSynced(clock.nowMillis())
                    if (retry.isNotEmpty()) {
                        val error = VigilError(VigilError.Kind.UNAVAILABLE, "server asked to retry ${retry.size} event(s)")
                        countAttempt(retry, error, rejected)
                        return SyncReport(delivered, rejected, queue.size(), backoff.nextDelayMillis(null), error)
                    }
                }
                is VigilApi.BatchOutcome.Retry -> {
                    val error = VigilError(
                        if (outcome.status == null) VigilError.Kind.OFFLINE else VigilError.Kind.UNAVAILABLE,
                        outcome.reason, outcome.status,
                    )
                    // Only an answer counts: a device offline for days keeps its events (the queue bound limits them).
                    if (outcome.status != null) countAttempt(batch, error, rejected)
                    logger.log(Logger.Level.WARN, "sync postponed: ${outcome.reason}", null)
                    return SyncReport(delivered, rejected, queue.size(), backoff.nextDelayMillis(outcome.retryAfterMillis), error)
                }
                VigilApi.BatchOutcome.TooLarge -> {
                    val smaller = DeliveryPolicy.shrinkBatch(batch.size)
                    if (smaller != null) {
                        batchSize = smaller
                    } else {
                        val error = tooLarge()
                        dropBatch(batch.map { it.id }, error, rejected)
                        lastError = error
                    }
                }
                is VigilApi.BatchOutcome.Rejected -> {
                    val error = outcome.problem.toError()
                    dropBatch(batch.map { it.id }, error, rejected)
                    lastError = error
                }
            }
        }
    }

    /** Records a retryable answer for [events]; those that reached the policy's limit are given up and reported. */
    private fun countAttempt(events: List<PendingEvent>, error: VigilError, rejected: MutableMap<String, VigilError>) {
        val (exhausted, again) = events.partition { it.attempts + 1 >= DeliveryPolicy.MAX_ATTEMPTS }
        if (exhausted.isNotEmpty()) {
            val given = error.copy(message = "gave up after ${DeliveryPolicy.MAX_ATTEMPTS} retryable answers: ${error.message}")
            dropBatch(exhausted.map { it.id }, given, rejected)
        }
        queue.markAttempt(again.map { it.id })
    }

    private fun dropBatch(ids: List<String>, error: VigilError, rejected: MutableMap<String, VigilError>) {
        logger.log(Logger.Level.ERROR, "dropping ${ids.size} event(s): ${error.message}", null)
        ids.forEach {
            rejected[it] = error
            remember(it, Outcome.Rejected(error))
        }
        queue.remove(ids)
    }

    private fun remember(id: String, outcome: Outcome) {
        synchronized(outcomes) { outcomes[id] = outcome }
    }
}
