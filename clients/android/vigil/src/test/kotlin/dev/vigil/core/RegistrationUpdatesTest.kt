package dev.vigil.core

import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.json.Json
import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.platform.Logger
import dev.vigil.core.registration.RegistrationListener
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.ScriptedHttpClient
import dev.vigil.testing.eventually
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger

/** Registration kept fresh by sync and by its own schedule, and changes announced through listeners and the Flow. */
class RegistrationUpdatesTest {
    /** The server's registry for this one device: what GET /devices/{id}/registration answers; events are accepted. */
    private class Registry : HttpClient {
        @Volatile var userId: String? = null
        @Volatile var status = "unregistered"
        @Volatile var failing = false
        val fetches = AtomicInteger()

        override fun execute(request: HttpRequest): HttpResponse = when {
            request.method == "GET" && request.url.endsWith("/registration") -> {
                fetches.incrementAndGet()
                if (failing) ScriptedHttpClient.problem(503) else HttpResponse(200, emptyMap(), Json.stringify(body()))
            }
            request.url.endsWith("/events/batch") -> ScriptedHttpClient.batchOk(request)
            else -> error("unexpected ${request.method} ${request.url}")
        }

        private fun body() = mapOf(
            "device_id" to "vd_test", "is_registered" to (status != "unregistered"), "user_id" to userId,
            "is_active" to (status == "active"), "role" to "teller", "status" to status,
            "registered_at" to "2026-11-01T00:00:00.000Z", "metadata" to emptyMap<String, Any?>(),
        )

        fun register(user: String) {
            userId = user
            status = "active"
        }
    }

    private val registry = Registry()
    private val logs = CopyOnWriteArrayList<String>()
    private val heard = CopyOnWriteArrayList<RegistrationStatus>()
    private val fixtures = ArrayList<CoreFixture>()
    private val collectors = CoroutineScope(Dispatchers.Unconfined)

    private fun fixture(refreshMillis: Long = 0) = CoreFixture(
        registry,
        logger = Logger { level, message, error -> logs += "$level $message ${error?.message ?: ""}" },
        registrationRefreshMillis = refreshMillis,
    ).also {
        fixtures += it
        it.registrationWatch.add { status -> heard += status }
    }

    private fun CoreFixture.sync() = (runBlocking { client.sync() } as VigilResult.Success).value

    @After
    fun close() {
        collectors.cancel()
        fixtures.forEach { it.client.close() }
    }

    @Test
    fun `a sync fetches the registration, and a transfer reaches the listeners and the flow`() {
        registry.register("agent-1")
        val f = fixture()
        val flowed = CopyOnWriteArrayList<String?>()
        collectors.launch { f.registrationWatch.flow.collect { flowed += it.userId } }
        f.sync()
        registry.register("agent-2")

        f.sync()

        assertEquals(listOf("agent-1", "agent-2"), heard.map { it.userId })
        assertEquals(listOf(null, "agent-1", "agent-2"), flowed)
        assertEquals("agent-2", f.client.registration.userId)
        assertEquals(2, registry.fetches.get())
    }

    @Test
    fun `a registration fetched again unchanged is announced once`() {
        registry.register("agent-1")
        val f = fixture()
        f.sync()
        f.now += 60_000
        f.sync()
        assertEquals(1, heard.size)
        assertEquals(f.now, f.client.registration.fetchedAtMillis)
    }

    @Test
    fun `a deactivation and a reactivation are each announced`() {
        registry.register("agent-1")
        val f = fixture()
        f.sync()
        registry.status = "deactivated"
        f.sync()
        registry.status = "active"
        f.sync()
        assertEquals(listOf("active", "deactivated", "active"), heard.map { it.status })
        assertEquals(listOf(true, false, true), heard.map { it.isActive })
    }

    @Test
    fun `a listener that throws is reported through the logger and the others still hear the change`() {
        registry.register("agent-1")
        val f = fixture()
        f.registrationWatch.add { throw IllegalStateException("the app's bug") }
        val later = CopyOnWriteArrayList<String?>()
        f.registrationWatch.add { later += it.userId }

        val report = f.sync()

        assertTrue(report.isComplete)
        assertEquals(listOf("agent-1"), later)
        assertEquals(listOf("agent-1"), heard.map { it.userId })
        assertTrue(logs.toString(), logs.any { it.startsWith("ERROR a registration listener threw the app's bug") })
    }

    @Test
    fun `a removed listener hears nothing more`() {
        registry.register("agent-1")
        val f = fixture()
        val removed = CopyOnWriteArrayList<String?>()
        val listener = RegistrationListener { removed += it.userId }
        f.registrationWatch.add(listener)
        f.sync()
        f.registrationWatch.remove(listener)
        registry.register("agent-2")
        f.sync()
        assertEquals(listOf("agent-1"), removed)
    }

    @Test
    fun `a failed refresh keeps the cached registration, announces nothing and is logged`() {
        registry.register("agent-1")
        val f = fixture()
        f.sync()
        registry.failing = true
        val report = f.sync()
        assertTrue(report.isComplete)
        assertEquals("agent-1", f.client.registration.userId)
        assertEquals(1, heard.size)
        assertTrue(logs.toString(), logs.any { it.startsWith("WARN registration refresh failed") })
    }

    @Test
    fun `with nothing to send, the registration is refreshed on its own schedule`() {
        registry.register("agent-1")
        val f = fixture(refreshMillis = 20)
        f.client.start()
        eventually(what = "the scheduled refresh to see agent-1") { f.client.registration.userId == "agent-1" }
        registry.register("agent-2")
        eventually(what = "the scheduled refresh to see the transfer") { heard.lastOrNull()?.userId == "agent-2" }
        assertEquals("agent-2", f.registrationWatch.flow.value.userId)
    }

    @Test
    fun `the flow starts from the cached registration, which is no change`() {
        registry.register("agent-1")
        fixture().sync()
        heard.clear()
        val restarted = CoreFixture(registry).also { fixtures += it }
        restarted.store.putString("vigil.registration", fixtures[0].store.getString("vigil.registration"))
        restarted.registrationWatch.add { heard += it }

        restarted.client.start()

        eventually(what = "the flow to start from the cache") { restarted.registrationWatch.flow.value.userId == "agent-1" }
        restarted.sync()
        assertTrue(heard.isEmpty())
    }
}
