package dev.vigil.core

import dev.vigil.core.json.Json
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.queue.EventQueue
import dev.vigil.core.queue.MemoryEventQueue
import dev.vigil.core.result.VigilError
import dev.vigil.core.result.VigilResult
import dev.vigil.core.signals.DeviceSignalsSource
import dev.vigil.core.sync.DeliveryScheduler
import dev.vigil.testing.ScriptedHttpClient
import dev.vigil.testing.ScriptedHttpClient.Companion.batchOk
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test

class OfflineTrackingTest {
    private val emulator = DeviceSignalsSource {
        mapOf("version" to 1, "platform" to "android", "emulator" to mapOf("detected" to true, "evidence" to listOf("build.hardware=ranchu")))
    }
    private val fixtures = ArrayList<CoreFixture>()

    private fun fixture(http: ScriptedHttpClient, signals: DeviceSignalsSource = DeviceSignalsSource.NONE, queue: MemoryEventQueue = MemoryEventQueue()) =
        CoreFixture(http, signals = signals, queue = queue).also { fixtures += it }

    @After
    fun close() = fixtures.forEach { it.client.close() }

    @Test
    fun `offline, track answers with the last server state plus the local checks`() {
        val f = fixture(ScriptedHttpClient({ batchOk(it) }), signals = emulator)
        runBlocking { f.client.track("login") }
        f.network.online = false

        val offline = runBlocking { f.client.track("transfer", mapOf("amount" to 5)) }.getOrNull()!!

        assertTrue(offline.isOffline)
        assertEquals("vd_test", offline.deviceId)
        assertEquals(setOf("new_device", "emulator"), offline.tags)
        assertEquals(setOf("emulator"), offline.localTags)
        assertEquals(0.9, offline.riskScore, 0.0)
        assertEquals(listOf("e2"), f.client.pendingEvents.map { it.id })
    }

    @Test
    fun `offline, a debuggable build alone neither tags the device nor raises the score, as on the server`() {
        val debuggable = DeviceSignalsSource {
            mapOf("version" to 1, "platform" to "android", "root" to mapOf("detected" to true, "evidence" to listOf("prop.ro.debuggable=1")))
        }
        val f = fixture(ScriptedHttpClient({ batchOk(it) }), signals = debuggable)
        runBlocking { f.client.track("login") }
        f.network.online = false

        val offline = runBlocking { f.client.track("transfer") }.getOrNull()!!

        assertTrue(offline.localTags.isEmpty())
        assertEquals(setOf("new_device"), offline.tags)
        assertEquals(0.25, offline.riskScore, 0.0)
    }

    @Test
    fun `offline without local evidence keeps the cached score`() {
        val f = fixture(ScriptedHttpClient({ batchOk(it) }))
        runBlocking { f.client.track("login") }
        f.network.online = false
        val offline = runBlocking { f.client.track("transfer") }.getOrNull()!!
        assertEquals(0.25, offline.riskScore, 0.0)
        assertTrue(offline.localTags.isEmpty())
    }

    @Test
    fun `the device signals travel with every event`() {
        val f = fixture(ScriptedHttpClient(), signals = emulator)
        f.network.online = false
        runBlocking { f.client.track("login") }
        val props = Json.parseObject(f.client.pendingEvents.single().propertiesJson)
        assertEquals(mapOf("detected" to true, "evidence" to listOf("build.hardware=ranchu")), (props["device_signals"] as Map<*, *>)["emulator"])
    }

    @Test
    fun `a failing signal source is reported as data and the event is still queued`() {
        val f = fixture(ScriptedHttpClient(), signals = DeviceSignalsSource { throw IllegalStateException("no /proc") })
        f.network.online = false
        val result = runBlocking { f.client.track("login") }
        assertTrue(result.isSuccess)
        val props = Json.parseObject(f.client.pendingEvents.single().propertiesJson)
        assertEquals("no /proc", (props["device_signals"] as Map<*, *>)["error"])
    }

    @Test
    fun `a full queue drops the oldest events and counts them`() {
        val f = fixture(ScriptedHttpClient(), queue = MemoryEventQueue(capacity = 2))
        f.network.online = false
        repeat(3) { runBlocking { f.client.track("tap") } }
        assertEquals(listOf("e2", "e3"), f.client.pendingEvents.map { it.id })
        assertEquals(1L, f.client.droppedEventCount)
    }

    @Test
    fun `an event name the server would refuse is refused at once and never queued`() {
        val f = fixture(ScriptedHttpClient())
        val result = runBlocking { f.client.track("x".repeat(201)) }
        assertEquals(VigilError.Kind.REJECTED, (result as VigilResult.Failure).error.kind)
        assertTrue(f.client.pendingEvents.isEmpty())
    }

    @Test
    fun `identify links later events to the identity and its metadata`() {
        val f = fixture(ScriptedHttpClient())
        f.network.online = false
        runBlocking { f.client.track("before") }
        f.client.identify("agent-7", mapOf("branch" to "north"))
        runBlocking { f.client.track("after") }

        val (before, after) = f.client.pendingEvents
        assertEquals(null, before.identity)
        assertEquals("agent-7", after.identity)
        assertEquals(mapOf("branch" to "north"), Json.parseObject(after.propertiesJson)["identity_metadata"])
    }

    @Test
    fun `registering without the server is a failure with a message, not an exception`() {
        val f = fixture(ScriptedHttpClient({ null }))
        val result = runBlocking { f.client.registerDevice("agent-7", mapOf("role" to "teller")) }
        val error = (result as VigilResult.Failure).error
        assertEquals(VigilError.Kind.OFFLINE, error.kind)
        assertFalse(f.client.registration.isRegistered)
    }

    @Test
    fun `an event queued offline while a drain finds the queue empty keeps its delivery job`() {
        val jobs = ArrayList<String>()
        val scheduler = object : DeliveryScheduler {
            override fun schedule() { jobs += "schedule" }
            override fun cancel() { jobs += "cancel" }
        }
        val inner = MemoryEventQueue()
        lateinit var f: CoreFixture
        var raced = false
        // The drain reads an empty queue; the device goes offline and an event is tracked before the drain ends.
        val queue = object : EventQueue by inner {
            override fun peek(limit: Int): List<PendingEvent> {
                val seen = inner.peek(limit)
                if (!raced) {
                    raced = true
                    f.network.online = false
                    runBlocking { f.client.track("transfer") }
                }
                return seen
            }
        }
        f = CoreFixture(ScriptedHttpClient(), queue = queue, scheduler = scheduler).also { fixtures += it }

        f.client.requestSync()

        assertTrue("the drain ran", raced)
        assertEquals(1, inner.size())
        assertEquals("the offline event's job is not cancelled by the drain that missed it", "schedule", jobs.last())
    }
}
