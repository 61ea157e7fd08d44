package dev.vigil.core.http

import dev.vigil.core.sync.DeliveryPolicy
import java.io.IOException
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URL

/** HttpURLConnection is on every Android version and every JVM, so the library adds no HTTP dependency. */
internal class UrlConnectionHttpClient(
    private val connectTimeoutMillis: Int = DeliveryPolicy.CONNECT_TIMEOUT_MILLIS,
    private val readTimeoutMillis: Int = DeliveryPolicy.READ_TIMEOUT_MILLIS,
) : HttpClient {
    override fun execute(request: HttpRequest): HttpResponse {
        val connection = URL(request.url).openConnection() as HttpURLConnection
        try {
            connection.requestMethod = request.method
            connection.connectTimeout = connectTimeoutMillis
            connection.readTimeout = readTimeoutMillis
            connection.useCaches = false
            connection.instanceFollowRedirects = false
            request.headers.forEach { (k, v) -> connection.setRequestProperty(k, v) }
            val body = request.body
            if (body != null) {
                connection.doOutput = true
                connection.setFixedLengthStreamingMode(body.size)
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            if (status < 0) throw IOException("invalid HTTP response")
            val stream: InputStream? = if (status >= 400) connection.errorStream else connection.inputStream
            val text = stream?.use { it.readBytes().toString(Charsets.UTF_8) } ?: ""
            val headers = LinkedHashMap<String, String>()
            connection.headerFields.forEach { (k, v) -> if (k != null && v != null && v.isNotEmpty()) headers[k.lowercase()] = v.first() }
            return HttpResponse(status, headers, text)
        } finally {
            connection.disconnect()
        }
    }
}
