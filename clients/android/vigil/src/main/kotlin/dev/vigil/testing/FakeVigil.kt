package dev.vigil.testing

import dev.vigil.Vigil
import dev.vigil.core.VigilClient
import dev.vigil.core.VigilOptions
import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.json.Json
import dev.vigil.core.platform.Logger
import dev.vigil.core.platform.MemoryKeyValueStore
import dev.vigil.core.platform.NetworkStatus
import dev.vigil.core.queue.MemoryEventQueue
import kotlinx.coroutines.Dispatchers
import java.io.IOException
import java.util.concurrent.CopyOnWriteArrayList
import java.util.zip.GZIPInputStream

/**
 * Vigil for an app's own tests (plain JVM or Robolectric): after [install], every `Vigil` call the app makes is
 * answered in memory — no Context, no disk, no network, no server — by the library's real logic talking to a
 * fake server. The test chooses the answers ([riskScore], [tags], [online]) and reads what the app sent
 * ([trackedEvents], [registeredUserId]). Calls complete on the calling thread. [uninstall] (or `Vigil.shutdown()`)
 * when done.
 *
 * ```kotlin
 * val vigil = FakeVigil.install { riskScore = 0.9; tags = listOf("rooted") }
 * checkout.pay()                                   // the app calls Vigil.track("transfer") { … }
 * assertEquals("transfer", vigil.trackedEvents.single().name)
 * vigil.uninstall()
 * ```
 */
class FakeVigil private constructor(val deviceId: String) {
    /** The risk score the fake server answers every event with. */
    @Volatile
    var riskScore: Double = 0.0

    /** The tags the fake server answers every event with. */
    @Volatile
    var tags: List<String> = emptyList()

    /**
     * The device's connectivity. Offline, `track` answers `isOffline = true` and queues; back online, the queue
     * is delivered (as on reconnect) and the events appear in [trackedEvents].
     */
    var online: Boolean
        get() = network.online
        set(value) = network.set(value)

    /** An event as the server received it: its name, identity and the app's properties (with `device_id`). */
    data class TrackedEvent(val name: String, val identity: String?, val properties: Map<String, Any?>)

    private val received = CopyOnWriteArrayList<TrackedEvent>()

    /** Every event the fake server received, in order of arrival. */
    val trackedEvents: List<TrackedEvent> get() = received.toList()

    /** The user this device was last registered to through `Vigil.registerDevice`, null if none (or deactivated). */
    @Volatile
    var registeredUserId: String? = null
        private set

    @Volatile
    private var role: String? = null
    private val network = FakeNetwork()

    /** Removes the fake: `Vigil` is uninitialized again. */
    fun uninstall() = Vigil.shutdown()

    private inner class FakeServer : HttpClient {
        override fun execute(request: HttpRequest): HttpResponse {
            if (!network.online) throw IOException("the fake device is offline")
            val path = request.url.substringAfter("://").substringAfter('/').let { "/$it" }
            val body = request.body?.let { bytes ->
                val text = if (request.headers["Content-Encoding"] == "gzip") GZIPInputStream(bytes.inputStream()).readBytes() else bytes
                Json.parseObject(String(text, Charsets.UTF_8))
            } ?: emptyMap()
            return when {
                path == "/events/batch" -> ok(mapOf("results" to (body["events"] as List<*>).map { accept(it as Map<*, *>) }))
                path.endsWith("/register") -> {
                    registeredUserId = body["user_id"] as String?
                    role = (body["metadata"] as? Map<*, *>)?.get("role") as String?
                    ok(registration() + mapOf("device_id" to deviceId, "registered_at" to REGISTERED_AT))
                }
                path.endsWith("/deactivate") -> {
                    registeredUserId = null
                    ok(registration() + mapOf("status" to "deactivated", "is_active" to false))
                }
                path.endsWith("/registration") -> ok(registration())
                else -> HttpResponse(404, emptyMap(), """{"status":404,"title":"not found"}""")
            }
        }

        private fun accept(event: Map<*, *>): Map<String, Any?> {
            val properties = (event["properties"] as? Map<*, *>).orEmpty().entries
                .associate { (k, v) -> k.toString() to v }
                .filterKeys { it != "event_id" && it != "timestamp" }
            received += TrackedEvent(event["event"] as String, event["identity"] as String?, properties)
            val insights = mapOf(
                "event_id" to "evt_fake_${received.size}",
                "device_id" to deviceId,
                "risk_score" to riskScore,
                "current_tags" to tags,
                "device" to mapOf(
                    "is_registered" to (registeredUserId != null), "registered_to" to registeredUserId, "role" to role,
                    "status" to if (registeredUserId != null) "active" else "unregistered",
                ),
            )
            return mapOf("status" to 200, "insights" to insights)
        }

        private fun registration(): Map<String, Any?> = mapOf(
            "is_registered" to (registeredUserId != null), "user_id" to registeredUserId, "role" to role,
            "status" to if (registeredUserId != null) "active" else "unregistered",
        )

        private fun ok(body: Map<String, Any?>) = HttpResponse(200, emptyMap(), Json.stringify(body))
    }

    private class FakeNetwork : NetworkStatus {
        @Volatile
        var online = true
        private val listeners = CopyOnWriteArrayList<() -> Unit>()

        fun set(value: Boolean) {
            val reconnected = value && !online
            online = value
            if (reconnected) listeners.forEach { it() }
        }

        override val isOnline: Boolean get() = online
        override fun observe(onAvailable: () -> Unit): AutoCloseable {
            listeners += onAvailable
            return AutoCloseable { listeners -= onAvailable }
        }
    }

    companion object {
        private const val REGISTERED_AT = "2026-01-01T00:00:00.000Z"

        /** android.util.Log is a stub in an app's JVM tests: the fake reports to standard error instead. */
        private val log = Logger { level, message, error -> System.err.println("Vigil (fake) $level: $message${error?.let { " ($it)" } ?: ""}") }

        /** Puts a fake behind `Vigil` (replacing any real or fake one) and returns it for the test to steer. */
        @JvmStatic
        @JvmOverloads
        fun install(deviceId: String = "vd_fake", configure: FakeVigil.() -> Unit = {}): FakeVigil {
            val fake = FakeVigil(deviceId).apply(configure)
            val queue = MemoryEventQueue()
            val client = VigilClient(
                VigilOptions(
                    apiKey = "vigil_ck_fake",
                    endpoint = "http://vigil.fake",
                    deviceId = { deviceId },
                    queue = queue,
                    store = MemoryKeyValueStore(),
                    http = fake.FakeServer(),
                    network = fake.network,
                    logger = log,
                    syncPeriodMillis = Long.MAX_VALUE / 4,
                    // Everything on the calling thread: the app's test sees each call's effect when it returns.
                    dispatcher = Dispatchers.Unconfined,
                )
            )
            Vigil.install(client, AutoCloseable { }, log)
            return fake
        }
    }
}
