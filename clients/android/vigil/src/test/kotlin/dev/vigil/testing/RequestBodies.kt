package dev.vigil.testing

import dev.vigil.core.http.HttpRequest
import java.util.zip.GZIPInputStream

/** The body as the server reads it: batches leave the library gzipped (Content-Encoding: gzip). */
fun HttpRequest.bodyText(): String {
    val bytes = body ?: return ""
    val plain = if (headers["Content-Encoding"] == "gzip") GZIPInputStream(bytes.inputStream()).use { it.readBytes() } else bytes
    return String(plain, Charsets.UTF_8)
}
