package dev.vigil.contract

import dev.vigil.Vigil
import dev.vigil.core.binding.RequestSigner
import dev.vigil.core.json.Json
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.ContractServer
import dev.vigil.testing.DeviceNetwork
import dev.vigil.testing.RecordingHttpClient
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
import java.net.HttpURLConnection
import java.net.URL

/**
 * Device binding against the real server: the library binds the device to its key at registration and signs what
 * it sends; a request for the same device id that its key did not sign is tagged and refused. Robolectric has no
 * Android Keystore, so the library falls back to its JCA key here, which the server binds as `unverified`.
 */
@RunWith(RobolectricTestRunner::class)
class BindingContractTest {
    private val server = ContractServer.get()
    private val http = RecordingHttpClient()

    @Before
    fun setUp() {
        DeviceNetwork.connect()
        Vigil.init(RuntimeEnvironment.getApplication()) {
            apiKey = server.clientKey
            endpoint = server.url
            httpClient = http
        }
    }

    @After
    fun tearDown() = Vigil.shutdown()

    /** A request as an attacker holding the app's client key sends it: no device key, so no signature. */
    private fun forged(path: String, body: String): Pair<Int, Map<String, Any?>> {
        val c = URL(server.url + path).openConnection() as HttpURLConnection
        c.requestMethod = "POST"
        c.doOutput = true
        c.setRequestProperty("Authorization", "Bearer ${server.clientKey}")
        c.setRequestProperty("Content-Type", "application/json")
        c.outputStream.use { it.write(body.toByteArray()) }
        val stream = if (c.responseCode < 400) c.inputStream else c.errorStream
        return c.responseCode to Json.parseObject(stream.bufferedReader().readText())
    }

    @Test
    fun `a forged request for the bound device is tagged device_key_mismatch and cannot deactivate or re-register it`() {
        val registered = runBlocking { Vigil.registerDevice("agent-7") { "role" to "teller" } }
        assertTrue("registration failed: $registered", registered is VigilResult.Success)
        val registration = http.exchanges.first { it.request.url.endsWith("/register") }.request
        assertNotNull(registration.headers[RequestSigner.HEADER_SIGNATURE])
        assertTrue(String(registration.body!!).contains("\"device_key\""))

        val tracked = runBlocking { Vigil.track("login") {} }
        assertTrue("track failed: $tracked", tracked is VigilResult.Success)
        assertFalse((tracked as VigilResult.Success).value.tags.contains("device_key_mismatch"))
        val batch = http.exchanges.last { it.request.url.endsWith("/events/batch") }.request
        assertNotNull(batch.headers[RequestSigner.HEADER_SIGNATURE])

        val deviceId = Vigil.deviceId
        val (status, problem) = forged("/devices/$deviceId/deactivate", """{"reason":"stolen, says the attacker"}""")
        assertEquals(403, status)
        assertEquals("device_key_mismatch", problem["code"])
        val (reStatus, reProblem) = forged("/devices/$deviceId/register", """{"user_id":"mallory"}""")
        assertEquals(403, reStatus)
        assertEquals("device_key_mismatch", reProblem["code"])

        val (eventStatus, answer) = forged("/events/batch", """{"events":[{"event":"transfer","properties":{"device_id":"$deviceId"}}]}""")
        assertEquals(200, eventStatus)
        val insights = ((answer["results"] as List<*>)[0] as Map<*, *>)["insights"] as Map<*, *>
        assertTrue((insights["current_tags"] as List<*>).contains("device_key_mismatch"))

        val refreshed = runBlocking { Vigil.device.refreshRegistration() }
        assertEquals("agent-7", (refreshed as VigilResult.Success).value.userId)
        val own = runBlocking { Vigil.deactivateDevice("lost phone") }
        assertTrue("own deactivation failed: $own", own is VigilResult.Success)
        assertFalse((own as VigilResult.Success).value.isActive)
    }
}
