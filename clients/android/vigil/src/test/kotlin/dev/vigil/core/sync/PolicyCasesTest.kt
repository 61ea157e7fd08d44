package dev.vigil.core.sync

import dev.vigil.core.api.Timestamps
import dev.vigil.core.json.Json
import org.junit.Assert.assertEquals
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized
import java.io.File
import java.text.SimpleDateFormat
import java.util.Locale
import java.util.TimeZone
import kotlin.random.Random

/**
 * clients/policy-cases.json, the cases the browser and Node libraries are tested against too. Surefire runs in the
 * module directory (clients/android/vigil), so the file is two levels up.
 */
private val file: Map<String, Any?> by lazy { Json.parseObject(File("../../policy-cases.json").readText(Charsets.UTF_8)) }

private fun Map<*, *>.map(key: String) = this[key] as Map<*, *>
private fun Map<*, *>.long(key: String) = (this[key] as Number).toLong()

/** One case with the file's defaults filled in. */
class PolicyCase(raw: Map<*, *>) {
    val name = raw["name"] as String
    val status = (raw["status"] as Number?)?.toInt()
    val retryAfter = raw["retry_after"] as String?
    val failure = (raw["failure"] as Number?)?.toInt() ?: 1
    val attempts = (raw["attempts"] as Number?)?.toInt() ?: 1
    val random = (raw["random"] as Number?)?.toDouble() ?: 0.0
    val batchSize = (raw["batch_size"] as Number?)?.toInt() ?: 1
    val expected = raw.map("expect")
    val nowMillis: Long = SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.US)
        .apply { timeZone = TimeZone.getTimeZone("UTC") }
        .parse(file["now"] as String)!!.time

    override fun toString() = name

    companion object {
        fun all(): List<PolicyCase> = (file["cases"] as List<*>).map { PolicyCase(it as Map<*, *>) }
    }
}

/** Every case against [DeliveryPolicy.decide]; each test is named by its case's sentence. */
@RunWith(Parameterized::class)
class PolicyCasesTest(private val case: PolicyCase) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): List<PolicyCase> = PolicyCase.all()
    }

    @Test
    fun `DeliveryPolicy decides as the case says`() {
        val e = case.expected
        val want = when (e["decision"]) {
            "done" -> DeliveryPolicy.Decision.Done
            "give_up" -> DeliveryPolicy.Decision.GiveUp
            "retry" -> DeliveryPolicy.Decision.Retry(e.long("delay_ms"), e["counts_as_attempt"] as Boolean)
            "shrink" -> DeliveryPolicy.Decision.Shrink(e.long("batch_limit").toInt())
            "drop" -> DeliveryPolicy.Decision.Drop(tooLarge = e["reason"] == "too_large")
            else -> error("unknown decision ${e["decision"]}")
        }
        val decision = with(case) {
            DeliveryPolicy.decide(status, retryAfter, nowMillis, failure, attempts, random, batchSize)
        }
        assertEquals(want, decision)
    }
}

/** The retry cases against the stateful [Backoff] the syncer uses, after the same failures in a row. */
@RunWith(Parameterized::class)
class BackoffCasesTest(private val case: PolicyCase) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): List<PolicyCase> = PolicyCase.all().filter { it.expected["decision"] == "retry" }
    }

    @Test
    fun `Backoff waits as the case says`() {
        val backoff = Backoff(random = Pinned(case.random))
        repeat(case.failure - 1) { backoff.nextDelayMillis(null) }
        val retryAfterMillis = if (case.status == null) null else Timestamps.retryAfterMillis(case.retryAfter, case.nowMillis)
        assertEquals(case.expected.long("delay_ms"), backoff.nextDelayMillis(retryAfterMillis))
    }

    /** A random source that always draws the case's value. */
    private class Pinned(private val value: Double) : Random() {
        override fun nextBits(bitCount: Int) = 0
        override fun nextDouble() = value
    }
}

class PolicyTableTest {
    @Test
    fun `the policy block of policy-cases json is the table DeliveryPolicy holds`() {
        val policy = file.map("policy")
        val retry = policy.map("retry")
        assertEquals(retry.long("base_delay_ms"), DeliveryPolicy.BASE_DELAY_MILLIS)
        assertEquals(retry.long("multiplier"), DeliveryPolicy.MULTIPLIER.toLong())
        assertEquals(retry.long("max_delay_ms"), DeliveryPolicy.MAX_DELAY_MILLIS)
        assertEquals("equal", retry["jitter"])
        assertEquals(retry.long("retry_after_cap_ms"), DeliveryPolicy.RETRY_AFTER_CAP_MILLIS)
        assertEquals(retry.long("max_attempts"), DeliveryPolicy.MAX_ATTEMPTS.toLong())
        val batch = policy.map("events_batch")
        assertEquals(batch.long("max_events"), DeliveryPolicy.MAX_BATCH_EVENTS.toLong())
        assertEquals(batch.long("max_bytes"), DeliveryPolicy.MAX_BATCH_BYTES.toLong())
        assertEquals(policy.map("flush_interval_ms").long("android"), DeliveryPolicy.FLUSH_INTERVAL_MILLIS)
        assertEquals(policy.map("queue_bound").long("android"), DeliveryPolicy.QUEUE_BOUND.toLong())
    }
}
