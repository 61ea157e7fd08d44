package dev.vigil.testing

import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.HttpResponse
import dev.vigil.core.http.UrlConnectionHttpClient
import java.io.IOException
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The library's real HTTP client with a tap: it records every exchange with the real server, and can lose
 * the next answer after the server produced it (the app killed mid-sync, from the client's point of view).
 *
 * Like a phone, it cannot reach the server while [DeviceNetwork] is down: the request fails on the device and is
 * not recorded, whatever the library believed about connectivity when it decided to send.
 */
class RecordingHttpClient(private val delegate: HttpClient = UrlConnectionHttpClient()) : HttpClient {
    class Exchange(val request: HttpRequest, val response: HttpResponse, val delivered: Boolean)

    val exchanges = CopyOnWriteArrayList<Exchange>()

    /** After losing that answer the network stays down: later requests fail before reaching the server. */
    @Volatile
    var loseNextResponseTo: String? = null

    /** Runs once as the next request leaves the library, e.g. to drop the network at that exact moment. */
    @Volatile
    var beforeNextRequest: (() -> Unit)? = null

    @Volatile
    private var down = false

    override fun execute(request: HttpRequest): HttpResponse {
        synchronized(this) { beforeNextRequest.also { beforeNextRequest = null } }?.invoke()
        if (!DeviceNetwork.isUp) throw IOException("the device is offline: ${request.url} is unreachable")
        if (down) throw IOException("network down (simulated)")
        val response = delegate.execute(request)
        val lose = loseNextResponseTo?.let { request.url.endsWith(it) } == true
        if (lose) {
            loseNextResponseTo = null
            down = true
        }
        exchanges += Exchange(request, response, delivered = !lose)
        if (lose) throw IOException("connection lost after the server answered (simulated)")
        return response
    }

    fun to(pathSuffix: String): List<Exchange> = exchanges.filter { it.request.url.endsWith(pathSuffix) }
}
