package dev.vigil

import dev.vigil.core.model.VigilResponse
import dev.vigil.core.result.VigilCallback
import dev.vigil.core.result.VigilError
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.DeviceNetwork
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit

/** The public object's contract that needs no server: configuration, offline answers, Java callbacks. */
@RunWith(RobolectricTestRunner::class)
class VigilObjectTest {
    private val app = RuntimeEnvironment.getApplication()

    @Before
    fun offline() {
        DeviceNetwork.connect()
        DeviceNetwork.goOffline()
    }

    @After
    fun tearDown() = Vigil.shutdown()

    private fun initOffline() = Vigil.init(app) {
        apiKey = "vigil_ck_example"
        endpoint = "http://127.0.0.1:9"
    }

    @Test
    fun `before init every call answers with a not-initialized failure instead of throwing`() {
        val result = runBlocking { Vigil.track("login") }
        assertEquals(VigilError.Kind.NOT_INITIALIZED, (result as VigilResult.Failure).error.kind)
        assertEquals("", Vigil.deviceId)
        assertTrue(Vigil.pendingEvents.isEmpty())
        assertFalse(Vigil.device.registration.isRegistered)
    }

    @Test
    fun `init without a key or with a malformed endpoint leaves the library unconfigured`() {
        Vigil.init(app) { endpoint = "https://vigil.example.com" }
        assertFalse(Vigil.isInitialized)
        Vigil.init(app) { apiKey = "vigil_ck_example"; endpoint = "vigil.example.com" }
        assertFalse(Vigil.isInitialized)
    }

    @Test
    fun `a second init keeps the first configuration`() {
        initOffline()
        val id = Vigil.deviceId
        Vigil.init(app) { apiKey = "vigil_ck_other"; endpoint = "http://other.example" }
        assertEquals(id, Vigil.deviceId)
        assertTrue(id.startsWith("vd_"))
    }

    @Test
    fun `offline tracking queues the event and answers with cached device information`() {
        initOffline()
        Vigil.identify("agent-7") { "branch" to "north" }
        val response = runBlocking {
            Vigil.track("transfer") {
                "amount" to 1200
                "currency" to "KES"
            }
        }.getOrNull()!!

        assertTrue(response.isOffline)
        assertEquals(Vigil.deviceId, response.deviceId)
        val pending = Vigil.pendingEvents.single()
        assertEquals("transfer", pending.name)
        assertEquals("agent-7", pending.identity)
        assertTrue(pending.propertiesJson, pending.propertiesJson.contains("\"amount\":1200"))
        assertTrue(pending.propertiesJson, pending.propertiesJson.contains("\"device_signals\":{\"version\":1"))
    }

    @Test
    fun `Java callers get the same result through a callback, off the main thread`() {
        initOffline()
        val done = CompletableFuture<Pair<VigilResult<VigilResponse>, Thread>>()
        Vigil.track("login", mapOf("method" to "pin"), VigilCallback { done.complete(it to Thread.currentThread()) })

        val (result, thread) = done.get(20, TimeUnit.SECONDS)
        assertTrue(result.getOrNull()!!.isOffline)
        assertFalse(thread === android.os.Looper.getMainLooper().thread)
    }

    @Test
    fun `a callback that throws does not reach the app`() {
        initOffline()
        val called = CompletableFuture<Unit>()
        Vigil.sync(VigilCallback {
            called.complete(Unit)
            throw IllegalStateException("app bug")
        })
        called.get(20, TimeUnit.SECONDS)
        assertTrue(Vigil.isInitialized)
    }

    @Test
    fun `registering offline is a failure with a message`() {
        initOffline()
        val result = runBlocking { Vigil.registerDevice("agent-7") { "role" to "teller" } }
        val error = (result as VigilResult.Failure).error
        assertTrue(error.message, error.message.isNotEmpty())
    }
}
