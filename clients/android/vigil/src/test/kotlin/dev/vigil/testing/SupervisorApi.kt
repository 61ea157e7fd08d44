package dev.vigil.testing

import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.json.Json
import java.net.URLEncoder

/** The supervisor REST interface (a supervisor's API token), as a test drives it. */
class SupervisorApi(private val server: ContractServer) {
    private val http = UrlConnectionHttpClient()
    private val key get() = server.supervisorToken ?: error("the supervisor routes need a supervisor token; run without -Dvigil.contract.supervisor=false")

    fun transfer(deviceId: String, newUserId: String, by: String): HttpResponse =
        post("/api/devices/${enc(deviceId)}/transfer", mapOf("new_user_id" to newUserId, "by" to by))

    fun deactivate(deviceId: String, reason: String, by: String): HttpResponse =
        post("/api/devices/${enc(deviceId)}/deactivate", mapOf("reason" to reason, "by" to by))

    fun reactivate(deviceId: String, reason: String, by: String): HttpResponse =
        post("/api/devices/${enc(deviceId)}/reactivate", mapOf("reason" to reason, "by" to by))

    fun devices(role: String? = null, branch: String? = null): HttpResponse {
        val query = listOfNotNull(role?.let { "role=${enc(it)}" }, branch?.let { "branch=${enc(it)}" }).joinToString("&")
        return http.execute(HttpRequest("GET", "${server.url}/api/devices" + (if (query.isEmpty()) "" else "?$query"), headers(), null))
    }

    /** The client event ids (properties.event_id) of the device's stored events, one entry per stored event. */
    fun storedEventIds(deviceId: String): List<String> {
        val query = "query(\$id: ID!) { device(id: \$id) { recentEvents(first: 100) { id name properties } } }"
        val response = post("/graphql", mapOf("query" to query, "variables" to mapOf("id" to deviceId)))
        check(response.status == 200) { "GraphQL answered ${response.status}: ${response.body}" }
        val data = Json.parseObject(response.body)
        check(data["errors"] == null) { "GraphQL errors: ${response.body}" }
        val device = (data["data"] as Map<*, *>)["device"] as? Map<*, *> ?: return emptyList()
        return (device["recentEvents"] as List<*>).map { ((it as Map<*, *>)["properties"] as Map<*, *>)["event_id"] as String }
    }

    private fun post(path: String, body: Map<String, Any?>): HttpResponse =
        http.execute(HttpRequest("POST", server.url + path, headers() + ("Content-Type" to "application/json"), Json.stringify(body).toByteArray()))

    private fun headers() = mapOf("Authorization" to "Bearer $key", "Accept" to "application/json")

    private fun enc(s: String) = URLEncoder.encode(s, "UTF-8")
}
