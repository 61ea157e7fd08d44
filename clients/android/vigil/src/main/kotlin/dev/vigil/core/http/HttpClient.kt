package dev.vigil.core.http

import java.io.IOException

class HttpRequest(
    val method: String,
    val url: String,
    val headers: Map<String, String>,
    val body: ByteArray?,
)

class HttpResponse(
    val status: Int,
    /** Header names are lower-cased. */
    val headers: Map<String, String>,
    val body: String,
) {
    fun header(name: String): String? = headers[name.lowercase()]
}

/**
 * The one HTTP seam. Implementations return every status as a response and throw [IOException] only when no
 * response arrived (offline, reset, timeout) — the sync treats those as "unknown outcome, retry with the same
 * event ids".
 */
fun interface HttpClient {
    @Throws(IOException::class)
    fun execute(request: HttpRequest): HttpResponse
}
