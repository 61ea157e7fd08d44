package dev.vigil.testing

import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.json.Json
import java.io.IOException

/**
 * An HTTP client that answers from a script, for the response-classification rules (which need statuses a
 * healthy server does not produce on demand). Each step sees the request; `null` means "no answer".
 */
class ScriptedHttpClient(private vararg val steps: (HttpRequest) -> HttpResponse?) : HttpClient {
    val requests = ArrayList<HttpRequest>()

    override fun execute(request: HttpRequest): HttpResponse {
        val step = steps.getOrNull(requests.size) ?: error("unexpected request #${requests.size + 1} to ${request.url}")
        requests += request
        return step(request) ?: throw IOException("no answer (scripted)")
    }

    fun sentEventIds(n: Int): List<String> = eventIds(requests[n])

    companion object {
        fun eventIds(request: HttpRequest): List<String> =
            (Json.parseObject(request.bodyText())["events"] as List<*>).map {
                ((it as Map<*, *>)["properties"] as Map<*, *>)["event_id"] as String
            }

        fun problem(status: Int, headers: Map<String, String> = emptyMap()) =
            HttpResponse(status, headers, """{"type":"/problems/x","title":"status $status","status":$status,"code":"c$status"}""")

        /** A 2xx batch answer: every event accepted, or the given per-item statuses. */
        fun batchOk(request: HttpRequest, statuses: List<Int>? = null): HttpResponse {
            val ids = eventIds(request)
            val results = ids.mapIndexed { i, id ->
                val status = statuses?.get(i) ?: 200
                if (status == 200) {
                    mapOf("status" to 200, "insights" to mapOf("event_id" to "evt_$id", "risk_score" to 0.25, "current_tags" to listOf("new_device")))
                } else {
                    mapOf("status" to status, "error" to mapOf("title" to "item $status", "status" to status))
                }
            }
            return HttpResponse(200, emptyMap(), Json.stringify(mapOf("results" to results)))
        }
    }
}
