package dev.vigil.core

import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.platform.MemoryKeyValueStore
import dev.vigil.core.queue.MemoryEventQueue
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.LocalServer
import dev.vigil.testing.eventually
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import java.net.ServerSocket
import java.util.concurrent.atomic.AtomicInteger

/** `track` answers within its own request's time, whatever waits in the queue and however slow the server is. */
class LiveEventFirstTest {
    private val closeables = ArrayList<AutoCloseable>()

    @After
    fun close() = closeables.asReversed().forEach { it.close() }

    private fun client(endpoint: String, queue: MemoryEventQueue, http: UrlConnectionHttpClient = UrlConnectionHttpClient()): VigilClient {
        val counter = AtomicInteger()
        return VigilClient(
            VigilOptions(
                apiKey = "vigil_ck_test",
                endpoint = endpoint,
                deviceId = { "vd_test" },
                queue = queue,
                store = MemoryKeyValueStore(),
                http = http,
                ids = { "live-${counter.incrementAndGet()}" },
                syncPeriodMillis = Long.MAX_VALUE / 4,
                dispatcher = Dispatchers.IO,
            )
        ).also { closeables += it }
    }

    private fun backlog(n: Int) = MemoryEventQueue().apply {
        repeat(n) { enqueue(PendingEvent("old-$it", "transfer", null, 1_795_000_000_000L + it, """{"amount":$it}""", 0)) }
    }

    // The guard turns a track that waits for the held backlog (it would wait for ever) into a failure, not a hang.
    @Test(timeout = 60_000)
    fun `with 2,000 queued events and a server slow to answer them, track answers after its own request only`() {
        val server = LocalServer().also { closeables += it }
        // Every request carrying a backlog event waits until the end of the test: a server slow with batches.
        server.holdWhile = { r -> r.eventIds.any { it.startsWith("old-") } }
        val queue = backlog(2_000)
        val client = client(server.url, queue)
        client.start() // drains the backlog in the background: its first batch is now held by the server

        val response = runBlocking { client.track("login") }

        assertTrue("expected the server's answer, got $response", response is VigilResult.Success && !response.value.isOffline)
        assertEquals("evt_live-1", (response as VigilResult.Success).value.eventId)
        // Answered so far: the live event's own request, alone; no backlog batch was answered before it.
        assertEquals(listOf(listOf("live-1")), server.answered.map { it.eventIds })

        server.release()
        eventually(what = "the backlog drained") { queue.size() == 0 }
        val ids = server.answeredIds
        assertEquals("each event answered once", ids.size, ids.toSet().size)
        assertEquals(2_001, ids.size)
        assertTrue("backlog batches stay within the batch limit", server.answered.all { it.eventIds.size <= 100 })
    }

    @Test(timeout = 10_000)
    fun `a server that accepts and never answers holds track no longer than the read timeout`() {
        // Bound and listening but never accepting: the kernel completes the connection, nothing ever answers.
        val silent = ServerSocket(0).also { closeables += it }
        val queue = MemoryEventQueue()
        val http = UrlConnectionHttpClient(connectTimeoutMillis = 1_000, readTimeoutMillis = 300)
        val client = client("http://127.0.0.1:${silent.localPort}", queue, http)

        // The JUnit guard below (far above 300 ms, far below the default read timeout) only catches a hang.
        val response = runBlocking { client.track("login") }

        assertTrue(response is VigilResult.Success && response.value.isOffline)
        assertEquals(listOf("live-1"), queue.all().map { it.id })
    }
}
