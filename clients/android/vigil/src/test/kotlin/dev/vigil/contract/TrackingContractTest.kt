package dev.vigil.contract

import dev.vigil.Vigil
import dev.vigil.core.platform.Logger
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.BatchLedger
import dev.vigil.testing.ContractServer
import dev.vigil.testing.DeviceNetwork
import dev.vigil.testing.RecordingHttpClient
import dev.vigil.testing.bodyText
import dev.vigil.testing.eventually
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment

/**
 * The library, on real Android framework code, against the real Vigil server: only POST /events/batch.
 */
@RunWith(RobolectricTestRunner::class)
class TrackingContractTest {
    private val server = ContractServer.get()
    private var http = RecordingHttpClient()
    private val logs = StringBuilder()

    private fun start(client: RecordingHttpClient = RecordingHttpClient()) {
        http = client
        Vigil.init(RuntimeEnvironment.getApplication()) {
            apiKey = server.clientKey
            endpoint = server.url
            httpClient = client
            syncIntervalMillis = 3_600_000
            logger = Logger { level, message, error -> synchronized(logs) { logs.append("$level $message ${error ?: ""}\n") } }
        }
        assertTrue("Vigil.init failed:\n$logs", Vigil.isInitialized)
    }

    @Before
    fun setUp() {
        DeviceNetwork.connect()
        start()
    }

    @After
    fun tearDown() = Vigil.shutdown()

    private fun <T> VigilResult<T>.value(): T = when (this) {
        is VigilResult.Success -> value
        is VigilResult.Failure -> throw AssertionError("expected success, got $error\nlibrary log:\n$logs\nserver log: ${server.log}")
    }

    @Test
    fun `tracking online returns the server's insights for this device`() {
        val response = runBlocking {
            Vigil.track("transfer") {
                "amount" to 250
                "currency" to "EUR"
                "recipient_id" to "acct-42"
            }
        }.value()

        assertFalse(response.isOffline)
        assertEquals(Vigil.deviceId, response.deviceId)
        assertTrue("event id ${response.eventId}", response.eventId!!.startsWith("evt_"))
        assertTrue("handprint ${response.handprintId}", response.handprintId!!.startsWith("hp_"))
        assertTrue(response.riskScore in 0.0..1.0)
        assertTrue(Vigil.pendingEvents.isEmpty())
        assertNotNull(Vigil.lastSyncTime)

        val sent = http.to("/events/batch").single()
        val body = sent.request.bodyText()
        assertTrue(body, body.contains("\"device_signals\":{\"version\":1,\"platform\":\"android\""))
        assertEquals("Bearer ${server.clientKey}", sent.request.headers["Authorization"])
    }

    @Test
    fun `tracking offline answers at once and the events reach the server once on reconnect`() {
        DeviceNetwork.goOffline()
        val first = runBlocking { Vigil.track("transfer") { "amount" to 10 } }.value()
        val second = runBlocking { Vigil.track("login") }.value()

        assertTrue(first.isOffline && second.isOffline)
        assertEquals(Vigil.deviceId, first.deviceId)
        assertTrue("nothing may be sent while offline", http.exchanges.isEmpty())
        assertEquals(listOf(first.clientEventId, second.clientEventId), Vigil.pendingEvents.map { it.id })
        assertEquals(listOf("transfer", "login"), Vigil.pendingEvents.map { it.name })

        DeviceNetwork.goOnline()
        eventually(what = "the queue to drain after reconnect") { Vigil.pendingEvents.isEmpty() }

        val ids = BatchLedger.vigilIdsByClientId(http.to("/events/batch"))
        assertEquals(setOf(first.clientEventId, second.clientEventId), ids.keys)
        ids.values.forEach { assertEquals(1, it.distinct().size) }
        assertNotNull(Vigil.lastSyncTime)
    }

    @Test
    fun `queued events survive a new process and are sent by it`() {
        DeviceNetwork.goOffline()
        val queued = runBlocking { Vigil.track("cash_out") { "amount" to 99.5 } }.value()
        val deviceId = Vigil.deviceId
        Vigil.shutdown()

        // A new process: new objects over the same files.
        start()
        assertEquals(deviceId, Vigil.deviceId)
        assertEquals(listOf(queued.clientEventId), Vigil.pendingEvents.map { it.id })

        DeviceNetwork.goOnline()
        val report = runBlocking { Vigil.sync() }.value()
        assertTrue(report.isComplete)
        assertTrue(Vigil.pendingEvents.isEmpty())
        assertEquals(listOf(queued.clientEventId), BatchLedger.vigilIdsByClientId(http.to("/events/batch")).keys.toList())
    }

    @Test
    fun `an event whose network drops between the online check and the request stays queued for the next process`() {
        // The library saw the device online and decided to send; the network goes before the request leaves.
        // A sync already under way when the device goes offline meets exactly this.
        http.beforeNextRequest = { DeviceNetwork.goOffline() }
        val answer = runBlocking { Vigil.track("cash_out") { "amount" to 12 } }.value()

        assertTrue(answer.isOffline)
        assertTrue("an offline device cannot reach the server", http.exchanges.isEmpty())
        assertEquals(listOf(answer.clientEventId), Vigil.pendingEvents.map { it.id })
        Vigil.shutdown()

        start()
        assertEquals(listOf(answer.clientEventId), Vigil.pendingEvents.map { it.id })
        DeviceNetwork.goOnline()
        assertTrue(runBlocking { Vigil.sync() }.value().isComplete)
        assertTrue(Vigil.pendingEvents.isEmpty())
        assertEquals(listOf(answer.clientEventId), BatchLedger.vigilIdsByClientId(http.to("/events/batch")).keys.toList())
    }

    @Test
    fun `an interrupted sync stores each event once`() {
        // The app launches offline. Launched online, its start-up sync may still be under way when the device goes
        // offline, pick up the first event queued, and send it alone once the network is back: correct, but then
        // the lost answer below would cover that event only.
        Vigil.shutdown()
        DeviceNetwork.goOffline()
        start()
        val events = (1..3).map { n -> runBlocking { Vigil.track("transfer") { "amount" to n } }.value() }
        val ids = events.map { it.clientEventId }

        // Back online, the server stores the batch, then the answer is lost and the network stays down: the
        // client cannot know the events were stored.
        http.loseNextResponseTo = "/events/batch"
        DeviceNetwork.goOnline()
        eventually(what = "the interrupted batch") { http.exchanges.isNotEmpty() }
        val lost = http.exchanges.first()
        assertFalse(lost.delivered)
        assertEquals(ids, Vigil.pendingEvents.map { it.id })
        Vigil.shutdown()

        // The app restarts and resends the same events with the same ids.
        val second = RecordingHttpClient()
        start(second)
        assertEquals(ids, Vigil.pendingEvents.map { it.id })
        val report = runBlocking { Vigil.sync() }.value()
        assertTrue(report.isComplete)
        assertTrue(Vigil.pendingEvents.isEmpty())

        val firstAnswers = BatchLedger.vigilIdsByClientId(listOf(lost))
        val secondAnswers = BatchLedger.vigilIdsByClientId(second.to("/events/batch"))
        assertEquals(ids.toSet(), firstAnswers.keys)
        ids.forEach { id ->
            // Same Vigil event id on the resend: the server replayed the stored event instead of storing another.
            assertEquals("event $id", firstAnswers.getValue(id), secondAnswers.getValue(id))
        }
    }
}
