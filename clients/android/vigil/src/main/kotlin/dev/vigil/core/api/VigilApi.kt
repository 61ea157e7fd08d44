package dev.vigil.core.api

import dev.vigil.core.binding.RequestSigner
import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.json.Json
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.platform.Clock
import dev.vigil.core.sync.DeliveryPolicy
import java.io.ByteArrayOutputStream
import java.io.IOException
import java.net.URLEncoder
import java.util.zip.GZIPOutputStream

/** The server's HTTP endpoints, with responses classified into outcomes (data), never exceptions. */
internal class VigilApi(
    endpoint: String,
    private val apiKey: String,
    private val http: HttpClient,
    private val clock: Clock,
    /** Signs registration changes and event batches once this device has a key (README, "Device binding"). */
    private val signer: () -> RequestSigner? = { null },
) {
    private val base = endpoint.trimEnd('/')

    sealed class BatchOutcome {
        /** 2xx: one result per event, in order. */
        data class Delivered(val items: List<Item>) : BatchOutcome()
        /** 408/429/5xx or no response: keep everything and try again later. */
        data class Retry(val status: Int?, val retryAfterMillis: Long?, val reason: String) : BatchOutcome()
        /** 413: the batch must shrink. */
        object TooLarge : BatchOutcome()
        /** Any other 4xx: the server will never accept this request as it is. */
        data class Rejected(val problem: Problem) : BatchOutcome()
    }

    sealed class Item {
        data class Accepted(val insights: Map<String, Any?>) : Item()
        data class Rejected(val problem: Problem) : Item()
        data class Retry(val status: Int) : Item()
    }

    sealed class Call {
        data class Ok(val body: Map<String, Any?>) : Call()
        data class Failed(val problem: Problem) : Call()
        data class Unreachable(val cause: IOException) : Call()
    }

    fun postBatch(events: List<PendingEvent>): BatchOutcome {
        // sent_at is the send time by the device's clock: the server moves each timestamp by the clock's error.
        val body = Json.stringify(mapOf("events" to events.map(::wireEvent), "sent_at" to Timestamps.iso8601(clock.nowMillis())))
        val response = try {
            send("POST", "/events/batch", body, gzipped = true)
        } catch (e: IOException) {
            return BatchOutcome.Retry(null, null, "network: ${e.message ?: e.javaClass.simpleName}")
        }
        val status = response.status
        return when (DeliveryPolicy.classify(status)) {
            DeliveryPolicy.Verdict.DONE -> parseBatch(response, events.size)
            DeliveryPolicy.Verdict.SHRINK -> BatchOutcome.TooLarge
            DeliveryPolicy.Verdict.RETRY -> BatchOutcome.Retry(
                status,
                Timestamps.retryAfterMillis(response.header("Retry-After"), clock.nowMillis()),
                Problem.from(status, response.body).message,
            )
            DeliveryPolicy.Verdict.DROP -> BatchOutcome.Rejected(Problem.from(status, response.body))
        }
    }

    private fun parseBatch(response: HttpResponse, expected: Int): BatchOutcome {
        val results = try {
            Json.parseObject(response.body)["results"] as? List<*>
        } catch (e: RuntimeException) {
            null
        }
        // A 2xx we cannot read may still mean stored: resending with the same event ids is safe, dropping is not.
        if (results == null || results.size != expected) {
            return BatchOutcome.Retry(response.status, null, "unreadable batch response")
        }
        return BatchOutcome.Delivered(results.map { r ->
            val m = r as? Map<*, *>
            val status = (m?.get("status") as? Number)?.toInt() ?: 0
            // An item without a status is resent (safe: it keeps its event id) rather than silently lost.
            when (if (status == 0) DeliveryPolicy.Verdict.RETRY else DeliveryPolicy.classify(status)) {
                DeliveryPolicy.Verdict.DONE -> Item.Accepted(
                    (m?.get("insights") as? Map<*, *>)?.entries?.associate { (k, v) -> k.toString() to v } ?: emptyMap()
                )
                DeliveryPolicy.Verdict.RETRY -> Item.Retry(status)
                else -> Item.Rejected(Problem.from(status, m?.get("error") as? Map<*, *>))
            }
        })
    }

    fun register(deviceId: String, userId: String, metadata: Map<String, Any?>): Call {
        val body = linkedMapOf<String, Any?>("user_id" to userId, "metadata" to metadata)
        signer()?.let { body["device_key"] = it.deviceKey() }
        return call("POST", "/devices/${encode(deviceId)}/register", Json.stringify(body))
    }

    fun registration(deviceId: String): Call = call("GET", "/devices/${encode(deviceId)}/registration", null)

    fun deactivate(deviceId: String, reason: String): Call =
        call("POST", "/devices/${encode(deviceId)}/deactivate", Json.stringify(mapOf("reason" to reason)))

    private fun call(method: String, path: String, body: String?): Call {
        val response = try {
            send(method, path, body)
        } catch (e: IOException) {
            return Call.Unreachable(e)
        }
        if (response.status !in 200..299) return Call.Failed(Problem.from(response.status, response.body))
        return try {
            Call.Ok(Json.parseObject(response.body))
        } catch (e: RuntimeException) {
            Call.Failed(Problem(response.status, "unreadable response", e.message, null))
        }
    }

    private fun send(method: String, path: String, body: String?, gzipped: Boolean = false): HttpResponse {
        val headers = linkedMapOf("Authorization" to "Bearer $apiKey", "Accept" to "application/json")
        if (body != null) headers["Content-Type"] = "application/json"
        var bytes = body?.toByteArray(Charsets.UTF_8)
        // The signature covers the JSON as the server's route reads it (after it inflates a gzipped body); reads (GET)
        // change nothing and go unsigned. A key that fails to sign sends the request unsigned: the server then tags or
        // refuses it, which is what it is, never a crash.
        if (method == "POST") signer()?.let { s -> runCatching { s.headers(method, path, bytes) }.getOrNull()?.let(headers::putAll) }
        if (bytes != null && gzipped) {
            bytes = gzip(bytes)
            headers["Content-Encoding"] = "gzip"
        }
        return http.execute(HttpRequest(method, base + path, headers, bytes))
    }

    /** Batches are JSON of repeated keys and device blocks: gzip makes them several times smaller on a phone's radio. */
    private fun gzip(bytes: ByteArray): ByteArray {
        val out = ByteArrayOutputStream()
        GZIPOutputStream(out).use { it.write(bytes) }
        return out.toByteArray()
    }

    private fun wireEvent(e: PendingEvent): Map<String, Any?> {
        val properties = LinkedHashMap<String, Any?>(Json.parseObject(e.propertiesJson))
        properties["event_id"] = e.id
        properties["timestamp"] = Timestamps.iso8601(e.occurredAtMillis)
        val wire = linkedMapOf<String, Any?>("event" to e.name)
        if (e.identity != null) wire["identity"] = e.identity
        wire["properties"] = properties
        return wire
    }

    private fun encode(s: String) = URLEncoder.encode(s, "UTF-8").replace("+", "%20")
}
