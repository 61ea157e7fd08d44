package dev.vigil.core

import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.platform.KeyValueStore
import dev.vigil.core.platform.MemoryKeyValueStore
import dev.vigil.core.queue.MemoryEventQueue
import dev.vigil.core.result.VigilError
import dev.vigil.core.result.VigilResult
import dev.vigil.core.signals.DeviceSignalsSource
import dev.vigil.testing.LocalServer
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.concurrent.atomic.AtomicInteger

/** The opt-out switch and `reset()`, against a real local HTTP server. */
class OptOutAndResetTest {
    private val server = LocalServer()
    private val network = CoreFixture.TestNetwork()
    private val store = MemoryKeyValueStore()
    private val queue = MemoryEventQueue()
    private val signalReads = AtomicInteger()
    private val clients = ArrayList<VigilClient>()

    @After
    fun close() {
        clients.forEach { it.close() }
        server.close()
    }

    private fun client(kvs: KeyValueStore = store): VigilClient {
        val counter = AtomicInteger()
        return VigilClient(
            VigilOptions(
                apiKey = "vigil_ck_test",
                endpoint = server.url,
                deviceId = { "vd_test" },
                queue = queue,
                store = kvs,
                http = UrlConnectionHttpClient(),
                network = network,
                ids = { "e${counter.incrementAndGet()}" },
                signals = DeviceSignalsSource { signalReads.incrementAndGet(); mapOf("version" to 1) },
                syncPeriodMillis = Long.MAX_VALUE / 4,
                dispatcher = Dispatchers.Unconfined,
            )
        ).also { clients += it }
    }

    private fun VigilResult<*>.kind() = (this as? VigilResult.Failure)?.error?.kind

    @Test
    fun `switched off, nothing is collected or sent and the queue is cleared, across restarts`() {
        val c = client()
        network.online = false
        runBlocking { c.track("login"); c.track("transfer") }
        assertEquals(2, queue.size())
        val readsBefore = signalReads.get()

        c.setEnabled(false)

        assertEquals("the queue is cleared", 0, queue.size())
        assertEquals(VigilError.Kind.DISABLED, runBlocking { c.track("login") }.kind())
        assertEquals("no device signals read", readsBefore, signalReads.get())
        assertEquals(0, queue.size())
        network.online = true
        assertEquals(VigilError.Kind.DISABLED, runBlocking { c.sync() }.kind())
        assertEquals(VigilError.Kind.DISABLED, runBlocking { c.registerDevice("ana") }.kind())
        assertTrue("nothing reached the server", server.received.isEmpty())

        c.close()
        val restarted = client()
        assertFalse("the switch is persisted", restarted.isEnabled)
        assertEquals(VigilError.Kind.DISABLED, runBlocking { restarted.track("login") }.kind())
        assertTrue(server.received.isEmpty())
    }

    @Test
    fun `switched on again, events are collected and sent`() {
        val c = client()
        c.setEnabled(false)
        c.setEnabled(true)

        val response = runBlocking { c.track("login") }

        assertTrue("$response", response is VigilResult.Success && !response.value.isOffline)
        assertEquals(listOf("e1"), server.answeredIds)
        assertTrue(client(store).isEnabled)
    }

    @Test
    fun `reset forgets the user and the cached insights, and queued events keep the identity they were tracked with`() {
        val c = client()
        c.identify("ana", mapOf("branch" to "north"))
        server.riskScore = 0.8
        runBlocking { c.track("login") } // online: the server's insights are cached for offline answers
        network.online = false
        runBlocking { c.track("transfer") } // queued for ana
        assertEquals(0.8, (runBlocking { c.track("probe") } as VigilResult.Success).value.riskScore, 0.0)

        c.reset()

        val offline = (runBlocking { c.track("browse") } as VigilResult.Success).value
        assertTrue(offline.isOffline)
        assertEquals("no cached insights of the previous user", 0.0, offline.riskScore, 0.0)
        network.online = true
        runBlocking { c.sync() }
        val identities = server.received.flatMap { r -> (r.body["events"] as List<*>).map { (it as Map<*, *>)["event"] to it["identity"] } }
        assertEquals(listOf("login" to "ana", "transfer" to "ana", "probe" to "ana", "browse" to null), identities)
        val browse = (server.received.last().body["events"] as List<*>).last() as Map<*, *>
        assertNull("no identity metadata after reset", (browse["properties"] as Map<*, *>)["identity_metadata"])
    }
}
