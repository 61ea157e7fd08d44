package dev.vigil.testing

import com.sun.net.httpserver.HttpServer
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.json.Json
import java.net.InetSocketAddress
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors

/**
 * A real HTTP server on a loopback port that answers POST /events/batch like Vigil (every event accepted), records
 * what it received and answered, in order, and can hold answers back: a request matching [holdWhile] waits until
 * [release] (a server slow to answer batches).
 */
class LocalServer : AutoCloseable {
    class Received(val headers: Map<String, String>, val body: Map<String, Any?>) {
        val eventIds: List<String> = (body["events"] as List<*>).map {
            ((it as Map<*, *>)["properties"] as Map<*, *>)["event_id"] as String
        }
    }

    val received = CopyOnWriteArrayList<Received>()
    val answered = CopyOnWriteArrayList<Received>()

    @Volatile
    var holdWhile: (Received) -> Boolean = { false }

    @Volatile
    var riskScore = 0.25
    private val gate = CountDownLatch(1)
    private val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 50)

    val url: String get() = "http://127.0.0.1:${server.address.port}"

    /** Every event id answered, in order. */
    val answeredIds: List<String> get() = answered.flatMap { it.eventIds }

    init {
        server.executor = Executors.newCachedThreadPool()
        server.createContext("/events/batch") { exchange ->
            exchange.use {
                val headers = exchange.requestHeaders.entries.associate { (k, v) -> k.lowercase() to v.first() }
                val raw = exchange.requestBody.readBytes()
                val body = HttpRequest("POST", "", mapOf("Content-Encoding" to (headers["content-encoding"] ?: "")), raw).bodyText()
                val r = Received(headers, Json.parseObject(body))
                received += r
                if (holdWhile(r)) gate.await()
                val results = r.eventIds.map { id ->
                    mapOf("status" to 200, "insights" to mapOf("event_id" to "evt_$id", "risk_score" to riskScore, "current_tags" to listOf("new_device")))
                }
                val answer = Json.stringify(mapOf("results" to results)).toByteArray()
                answered += r // before the answer leaves, so a client that has it sees it recorded
                exchange.responseHeaders.add("Content-Type", "application/json")
                exchange.sendResponseHeaders(200, answer.size.toLong())
                exchange.responseBody.write(answer)
            }
        }
        server.start()
    }

    fun release() = gate.countDown()

    override fun close() {
        release()
        server.stop(0)
    }
}
