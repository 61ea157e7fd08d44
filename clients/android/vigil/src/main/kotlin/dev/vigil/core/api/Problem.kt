package dev.vigil.core.api

import dev.vigil.core.json.Json
import dev.vigil.core.result.VigilError

/** The useful parts of an application/problem+json body. */
internal data class Problem(val status: Int, val title: String?, val detail: String?, val code: String?) {
    val message: String get() = listOfNotNull(title, detail).joinToString(": ").ifEmpty { "HTTP $status" }

    fun toError(): VigilError {
        val kind = if (status == 408 || status == 429 || status >= 500) VigilError.Kind.UNAVAILABLE else VigilError.Kind.REJECTED
        return VigilError(kind, message, status, code)
    }

    companion object {
        fun from(status: Int, body: String): Problem {
            val m = try {
                Json.parse(body) as? Map<*, *>
            } catch (e: RuntimeException) {
                null
            }
            return from(status, m)
        }

        fun from(status: Int, m: Map<*, *>?): Problem =
            Problem(status, m?.get("title") as? String, m?.get("detail") as? String, m?.get("code") as? String)
    }
}
