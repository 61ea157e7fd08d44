package dev.vigil.testing

import dev.vigil.core.json.Json

/**
 * Reads recorded /events/batch exchanges: for each client event id, every Vigil event id the server answered
 * with. The server replays the first answer for a repeated event_id, so "stored once" means one distinct
 * Vigil id per client event, however many times it was sent.
 */
object BatchLedger {
    fun vigilIdsByClientId(exchanges: List<RecordingHttpClient.Exchange>): Map<String, List<String>> {
        val out = LinkedHashMap<String, MutableList<String>>()
        for (exchange in exchanges) {
            if (exchange.response.status != 200) continue
            val sent = (Json.parseObject(exchange.request.bodyText())["events"] as List<*>)
                .map { ((it as Map<*, *>)["properties"] as Map<*, *>)["event_id"] as String }
            val results = Json.parseObject(exchange.response.body)["results"] as List<*>
            sent.zip(results).forEach { (clientId, result) ->
                val r = result as Map<*, *>
                if (r["status"] == 200L) {
                    val insights = r["insights"] as Map<*, *>
                    out.getOrPut(clientId) { ArrayList() } += insights["event_id"] as String
                }
            }
        }
        return out
    }

    fun sentCount(exchanges: List<RecordingHttpClient.Exchange>, clientId: String): Int = exchanges.count { e ->
        e.request.bodyText().contains("\"event_id\":\"$clientId\"")
    }
}
