package dev.vigil.contract

import dev.vigil.core.CoreFixture
import dev.vigil.core.VigilClient
import dev.vigil.core.VigilOptions
import dev.vigil.core.api.Timestamps
import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.json.Json
import dev.vigil.core.platform.Clock
import dev.vigil.core.platform.MemoryKeyValueStore
import dev.vigil.core.platform.NetworkStatus
import dev.vigil.core.queue.MemoryEventQueue
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.ContractServer
import dev.vigil.testing.bodyText
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.concurrent.CopyOnWriteArrayList

/** What a batch looks like on the wire (gzip, sent_at), against the real Vigil server. */
class BatchWireContractTest {
    private val server = ContractServer.get()
    private val sent = CopyOnWriteArrayList<HttpRequest>()
    private val real = UrlConnectionHttpClient()
    private var client: VigilClient? = null

    @After
    fun close() {
        client?.close()
    }

    private fun client(clock: Clock, network: NetworkStatus = NetworkStatus.AlwaysOnline) = VigilClient(
        VigilOptions(
            apiKey = server.clientKey,
            endpoint = server.url,
            deviceId = { "vd_wire_${System.nanoTime()}" },
            queue = MemoryEventQueue(),
            store = MemoryKeyValueStore(),
            http = HttpClient { request -> sent += request; real.execute(request) },
            clock = clock,
            network = network,
            syncPeriodMillis = Long.MAX_VALUE / 4,
            dispatcher = Dispatchers.IO,
        )
    ).also { client = it }

    @Test
    fun `a device clock an hour fast still delivers its events, corrected by sent_at`() {
        var now = System.currentTimeMillis() + 3_600_000
        val network = CoreFixture.TestNetwork(online = false)
        val fast = client({ now }, network)
        runBlocking { fast.track("login") } // offline: queued, stamped by the fast clock
        val trackedAt = now
        now += 600_000
        network.online = true

        val report = (runBlocking { fast.sync() } as VigilResult.Success).value

        // Without sent_at the server refuses a timestamp an hour in the future (validation_failed).
        assertEquals("rejected: ${report.rejected}", 1, report.delivered)
        // The sync also refreshes the registration (a GET); the batch is the one POST.
        val body = Json.parseObject(sent.single { it.method == "POST" }.bodyText())
        val properties = ((body["events"] as List<*>).single() as Map<*, *>)["properties"] as Map<*, *>
        assertEquals("the event keeps the time it happened", Timestamps.iso8601(trackedAt), properties["timestamp"])
        assertEquals("sent_at is the send time, by the same clock", Timestamps.iso8601(now), body["sent_at"])
    }

    @Test
    fun `batches go gzipped, and the server takes them`() {
        val c = client(Clock.SYSTEM)
        val response = runBlocking { c.track("transfer", mapOf("amount" to 250, "note" to "x".repeat(2_000))) }

        assertTrue("expected the server's answer, got $response", response is VigilResult.Success && !response.value.isOffline)
        val request = sent.single()
        assertEquals("gzip", request.headers["Content-Encoding"])
        assertTrue("the wire body is smaller than the JSON", request.body!!.size < request.bodyText().length / 4)
        assertFalse(request.bodyText().isEmpty())
    }

}
