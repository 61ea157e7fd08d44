package dev.vigil.core

import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.json.Json
import dev.vigil.core.result.VigilError
import dev.vigil.core.result.VigilResult
import dev.vigil.core.sync.DeliveryPolicy
import dev.vigil.testing.ScriptedHttpClient
import dev.vigil.testing.bodyText
import dev.vigil.testing.ScriptedHttpClient.Companion.batchOk
import dev.vigil.testing.ScriptedHttpClient.Companion.problem
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test

class SyncClassificationTest {
    private var fixture: CoreFixture? = null

    private fun fixture(http: ScriptedHttpClient, maxBatchSize: Int = 100) =
        CoreFixture(http, maxBatchSize = maxBatchSize).also { fixture = it }

    @After
    fun close() {
        fixture?.client?.close()
    }

    /** Queues [n] events while offline, then comes back online. */
    private fun CoreFixture.queueOffline(n: Int) {
        network.online = false
        repeat(n) { runBlocking { client.track("transfer", mapOf("amount" to it)) } }
        network.online = true
    }

    private fun CoreFixture.syncReport() = (runBlocking { client.sync() } as VigilResult.Success).value

    @Test
    fun `an accepted event leaves the queue and its insights are the answer`() {
        val http = ScriptedHttpClient({ batchOk(it) })
        val f = fixture(http)
        val response = runBlocking { f.client.track("login") }.getOrNull()!!

        assertFalse(response.isOffline)
        assertEquals("evt_e1", response.eventId)
        assertEquals(0.25, response.riskScore, 0.0)
        assertEquals(setOf("new_device"), response.tags)
        assertTrue(f.client.pendingEvents.isEmpty())
        assertEquals(f.now, f.client.lastSyncTimeMillis)
    }

    @Test
    fun `each event is sent with its id, its original timestamp and the device id`() {
        val http = ScriptedHttpClient({ batchOk(it) })
        val f = fixture(http)
        f.queueOffline(1)
        f.now += 3_600_000
        f.syncReport()

        val sent = Json.parseObject(http.requests[0].bodyText())["events"] as List<*>
        val props = (sent.single() as Map<*, *>)["properties"] as Map<*, *>
        assertEquals("e1", props["event_id"])
        assertEquals("2026-11-18T11:06:40.000Z", props["timestamp"])
        assertEquals("vd_test", props["device_id"])
        assertEquals(0L, props["amount"])
        assertEquals("http://vigil.test/events/batch", http.requests[0].url)
        assertEquals("Bearer vigil_ck_test", http.requests[0].headers["Authorization"])
    }

    @Test
    fun `a server error keeps every event and retries after the server's Retry-After`() {
        val http = ScriptedHttpClient({ problem(503, mapOf("retry-after" to "7")) })
        val f = fixture(http)
        f.queueOffline(2)
        val report = f.syncReport()

        assertEquals(7_000L, report.retryAfterMillis)
        assertEquals(listOf("e1", "e2"), f.client.pendingEvents.map { it.id })
        assertEquals(listOf(1, 1), f.client.pendingEvents.map { it.attempts })
        assertEquals(VigilError.Kind.UNAVAILABLE, report.lastError!!.kind)
    }

    @Test
    fun `request timeouts and rate limits are retried like server errors`() {
        for (status in listOf(408, 429, 500, 502)) {
            val f = fixture(ScriptedHttpClient({ problem(status) }))
            f.queueOffline(1)
            val report = f.syncReport()
            assertFalse("status $status", report.isComplete)
            assertEquals("status $status", 1, f.client.pendingEvents.size)
            f.client.close()
        }
    }

    @Test
    fun `no answer at all keeps the event and track answers from the cache`() {
        val f = fixture(ScriptedHttpClient({ null }))
        val response = runBlocking { f.client.track("login") }.getOrNull()!!

        assertTrue(response.isOffline)
        assertEquals("e1", response.clientEventId)
        assertEquals(listOf("e1"), f.client.pendingEvents.map { it.id })
    }

    @Test
    fun `a 413 halves the batch until it fits`() {
        val http = ScriptedHttpClient({ problem(413) }, { batchOk(it) }, { batchOk(it) })
        val f = fixture(http, maxBatchSize = 4)
        f.queueOffline(4)
        val report = f.syncReport()

        assertTrue(report.isComplete)
        assertEquals(4, report.delivered)
        assertEquals(listOf(4, 2, 2), http.requests.indices.map { http.sentEventIds(it).size })
        assertEquals(listOf("e1", "e2", "e3", "e4"), http.sentEventIds(1) + http.sentEventIds(2))
    }

    @Test
    fun `a single event too large to send is dropped with a reported error`() {
        val http = ScriptedHttpClient({ problem(413) }, { problem(413) }, { batchOk(it) })
        val f = fixture(http, maxBatchSize = 2)
        f.queueOffline(2)
        val report = f.syncReport()

        assertEquals(setOf("e1"), report.rejected.keys)
        assertEquals(413, report.rejected.getValue("e1").status)
        assertEquals(1, report.delivered)
        assertTrue(f.client.pendingEvents.isEmpty())
    }

    @Test
    fun `any other 4xx drops the batch with a reported error`() {
        val f = fixture(ScriptedHttpClient({ problem(401) }))
        f.queueOffline(2)
        val report = f.syncReport()

        assertEquals(setOf("e1", "e2"), report.rejected.keys)
        assertEquals(VigilError.Kind.REJECTED, report.rejected.getValue("e1").kind)
        assertEquals("c401", report.rejected.getValue("e1").code)
        assertTrue(report.isComplete)
        assertTrue(f.client.pendingEvents.isEmpty())
    }

    @Test
    fun `per-event answers drop rejected events and keep the ones to retry`() {
        val http = ScriptedHttpClient({ batchOk(it, listOf(200, 400, 503)) })
        val f = fixture(http)
        f.queueOffline(3)
        val report = f.syncReport()

        assertEquals(1, report.delivered)
        assertEquals(setOf("e2"), report.rejected.keys)
        assertEquals(listOf("e3"), f.client.pendingEvents.map { it.id })
        assertFalse(report.isComplete)
    }

    @Test
    fun `track reports a rejected event as a failure with the server's message`() {
        val f = fixture(ScriptedHttpClient({ batchOk(it, listOf(400)) }))
        val result = runBlocking { f.client.track("login") }

        val error = (result as VigilResult.Failure).error
        assertEquals(400, error.status)
        assertEquals("item 400", error.message)
        assertTrue(f.client.pendingEvents.isEmpty())
    }

    @Test
    fun `an unreadable success keeps the events for a resend under the same ids`() {
        val http = ScriptedHttpClient({ HttpResponse(200, emptyMap(), "<html>proxy</html>") }, { batchOk(it) })
        val f = fixture(http)
        f.queueOffline(1)
        assertFalse(f.syncReport().isComplete)
        assertEquals(listOf("e1"), f.client.pendingEvents.map { it.id })

        assertTrue(f.syncReport().isComplete)
        assertEquals(http.sentEventIds(0), http.sentEventIds(1))
    }

    @Test
    fun `an event the server keeps failing on is given up after twenty retryable answers`() {
        val http = ScriptedHttpClient(*Array(DeliveryPolicy.MAX_ATTEMPTS) { { _: HttpRequest -> problem(503) } })
        val f = fixture(http)
        f.queueOffline(1)
        repeat(DeliveryPolicy.MAX_ATTEMPTS - 1) { f.syncReport() }
        assertEquals(listOf(DeliveryPolicy.MAX_ATTEMPTS - 1), f.client.pendingEvents.map { it.attempts })

        val last = f.syncReport()
        assertTrue(f.client.pendingEvents.isEmpty())
        assertEquals(setOf("e1"), last.rejected.keys)
        assertTrue(last.rejected.getValue("e1").message.startsWith("gave up after 20 retryable answers"))
    }

    @Test
    fun `a sync that gets no answer keeps the events without counting an attempt`() {
        val http = ScriptedHttpClient({ null }, { null })
        val f = fixture(http)
        f.queueOffline(2)
        repeat(2) { assertEquals(VigilError.Kind.OFFLINE, f.syncReport().lastError!!.kind) }
        assertEquals(listOf(0, 0), f.client.pendingEvents.map { it.attempts })
    }

    @Test
    fun `a sync without network says so instead of trying`() {
        val http = ScriptedHttpClient()
        val f = fixture(http)
        f.network.online = false
        val result = runBlocking { f.client.sync() }
        assertEquals(VigilError.Kind.OFFLINE, (result as VigilResult.Failure).error.kind)
        assertTrue(http.requests.isEmpty())
    }

    @Test
    fun `nothing to send means no request`() {
        val http = ScriptedHttpClient()
        val report = fixture(http).syncReport()
        assertTrue(report.isComplete)
        assertNull(report.lastError)
        assertTrue(http.requests.isEmpty())
    }
}
