package dev.vigil.core

import dev.vigil.core.api.Timestamps
import dev.vigil.core.sync.Backoff
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import kotlin.random.Random

class BuildersAndTimingTest {
    @Test
    fun `each "key" to value line in a block records a property`() {
        val props = PropertiesBuilder.build {
            "role" to "teller"
            "branch" to "north"
            "limit" to 500
        }
        assertEquals(mapOf("role" to "teller", "branch" to "north", "limit" to 500), props)
    }

    @Test
    fun `backoff doubles with jitter, is capped, and resets`() {
        val backoff = Backoff(baseMillis = 1_000, maxMillis = 8_000, random = Random(1))
        val delays = (1..6).map { backoff.nextDelayMillis(null) }
        listOf(1_000L, 2_000L, 4_000L, 8_000L, 8_000L, 8_000L).zip(delays).forEach { (ceiling, d) ->
            assertTrue("$d within [${ceiling / 2}, $ceiling]", d in ceiling / 2..ceiling)
        }
        backoff.reset()
        assertTrue(backoff.nextDelayMillis(null) <= 1_000L)
    }

    @Test
    fun `a server's Retry-After wins over the computed backoff`() {
        assertEquals(7_000L, Backoff().nextDelayMillis(7_000L))
    }

    @Test
    fun `Retry-After is read as seconds or as an HTTP date`() {
        val now = 1_795_000_000_000L // 2026-11-18T11:06:40Z
        assertEquals(120_000L, Timestamps.retryAfterMillis("120", now))
        val httpDate = java.text.SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", java.util.Locale.US)
            .apply { timeZone = java.util.TimeZone.getTimeZone("GMT") }
            .format(java.util.Date(now + 30_000))
        assertEquals(30_000L, Timestamps.retryAfterMillis(httpDate, now))
        assertEquals(null, Timestamps.retryAfterMillis("soon", now))
        assertEquals(null, Timestamps.retryAfterMillis(null, now))
    }

    @Test
    fun `timestamps are ISO 8601 in UTC with milliseconds`() {
        assertEquals("1970-01-01T00:00:01.234Z", Timestamps.iso8601(1_234))
    }
}
