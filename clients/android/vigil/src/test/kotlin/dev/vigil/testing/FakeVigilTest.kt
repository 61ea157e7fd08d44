package dev.vigil.testing

import dev.vigil.Vigil
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test

/** The fake an app's own tests use: plain JVM, no Robolectric, no server. */
class FakeVigilTest {
    @After
    fun tearDown() = Vigil.shutdown()

    @Test
    fun `the app's track is answered with the test's score and tags and recorded`() {
        val vigil = FakeVigil.install { riskScore = 0.9; tags = listOf("rooted") }

        val response = runBlocking { Vigil.track("transfer") { "amount" to 2500 } }.getOrNull()!!

        assertFalse(response.isOffline)
        assertEquals(0.9, response.riskScore, 0.0)
        assertEquals(setOf("rooted"), response.tags)
        assertEquals("vd_fake", Vigil.deviceId)
        assertEquals(FakeVigil.TrackedEvent("transfer", null, mapOf("amount" to 2500L, "device_id" to "vd_fake")), vigil.trackedEvents.single())
    }

    @Test
    fun `offline, events wait in the queue and arrive on reconnect`() {
        val vigil = FakeVigil.install { online = false }
        Vigil.identify("agent-7")

        val response = runBlocking { Vigil.track("login") }.getOrNull()!!

        assertTrue(response.isOffline)
        assertTrue(vigil.trackedEvents.isEmpty())
        assertEquals(1, runBlocking { Vigil.pendingEventCount() })
        vigil.online = true
        assertEquals(listOf("login" to "agent-7"), vigil.trackedEvents.map { it.name to it.identity })
        assertEquals(0, runBlocking { Vigil.pendingEventCount() })
    }

    @Test
    fun `registration goes to the fake server and is read back as from a real one`() {
        val vigil = FakeVigil.install()

        runBlocking { Vigil.registerDevice("agent-7") { "role" to "teller" } }

        assertEquals("agent-7", vigil.registeredUserId)
        assertEquals("agent-7", Vigil.device.registration.userId)
        assertEquals("teller", Vigil.device.registration.role)
        runBlocking { Vigil.deactivateDevice("lost") }
        assertFalse(Vigil.device.registration.isActive)
    }
}
