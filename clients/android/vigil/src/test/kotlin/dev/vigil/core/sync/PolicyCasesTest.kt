package dev.vigil.core.sync

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

/** The module's working directory under Surefire is clients/android/vigil; the cases sit in clients/. */
private val casesFile = File("../../policy-cases.json")

private val cases: Map<String, Any?> by lazy { Json.parseObject(casesFile.readText(Charsets.UTF_8)) }

private fun Map<*, *>.map(key: String) = this[key] as Map<*, *>
private fun Map<*, *>.long(key: String) = (this[key] as Number).toLong()

/**
 * clients/policy-cases.json, the cases the browser and Node libraries are tested against too, run against
 * [DeliveryPolicy] and [Backoff]. Each case's name is its test's name.
 */
@RunWith(Parameterized::class)
class PolicyCasesTest(private val name: String, private val case: Map<*, *>) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): List<Array<Any>> = (cases["cases"] as List<*>).map { c ->
            c as Map<*, *>
            arrayOf(c["name"] as String, c)
        }
    }

    private val status = (case["status"] as Number?)?.toInt()
    private val retryAfter = case["retry_after"] as String?
    private val failure = (case["failure"] as Number?)?.toInt() ?: 1
    private val attempts = (case["attempts"] as Number?)?.toInt() ?: 1
    private val random = (case["random"] as Number?)?.toDouble() ?: 0.0
    private val batchSize = (case["batch_size"] as Number?)?.toInt() ?: 1
    private val expected = case.map("expect")
    private val nowMillis = SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.US)
        .apply { timeZone = TimeZone.getTimeZone("UTC") }
        .parse(cases["now"] as String)!!.time

    @Test
    fun `DeliveryPolicy decides as the case says`() {
        val decision = DeliveryPolicy.decide(status, retryAfter, nowMillis, failure, attempts, random, batchSize)
        val want = when (expected["decision"]) {
            "done" -> DeliveryPolicy.Decision.Done
            "give_up" -> DeliveryPolicy.Decision.GiveUp
            "retry" -> DeliveryPolicy.Decision.Retry(expected.long("delay_ms"), expected["counts_as_attempt"] as Boolean)
            "shrink" -> DeliveryPolicy.Decision.Shrink(expected.long("batch_limit").toInt())
            "drop" -> DeliveryPolicy.Decision.Drop(tooLarge = expected["reason"] == "too_large")
            else -> error("unknown decision ${expected["decision"]}")
        }
        assertEquals(want, decision)
    }

    @Test
    fun `Backoff waits as the case says after the same failures in a row`() {
        if (expected["decision"] != "retry") return
        val backoff = Backoff(random = Pinned(random))
        repeat(failure - 1) { backoff.nextDelayMillis(null) }
        val retryAfterMillis = dev.vigil.core.api.Timestamps.retryAfterMillis(retryAfter, nowMillis)
        assertEquals(expected.long("delay_ms"), backoff.nextDelayMillis(if (status == null) null else retryAfterMillis))
    }

    /** A random source that always draws [value], as the case pins it. */
    private class Pinned(private val value: Double) : Random() {
        override fun nextBits(bitCount: Int) = 0
        override fun nextDouble() = value
    }
}

class PolicyTableTest {
    @Test
    fun `the policy block of policy-cases json is the table DeliveryPolicy holds`() {
        val policy = cases.map("policy")
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
