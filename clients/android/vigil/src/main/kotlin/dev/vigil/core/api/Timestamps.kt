package dev.vigil.core.api

import java.text.SimpleDateFormat
import java.util.Date
import java.util.Locale
import java.util.TimeZone

/** java.time needs API 26; SimpleDateFormat works on API 21. Formatters are not thread-safe: one per call. */
internal object Timestamps {
    fun iso8601(millis: Long): String =
        SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.US)
            .apply { timeZone = TimeZone.getTimeZone("UTC") }
            .format(Date(millis))

    /** Retry-After is either delta-seconds or an HTTP date. */
    fun retryAfterMillis(header: String?, nowMillis: Long): Long? {
        val value = header?.trim()?.takeIf { it.isNotEmpty() } ?: return null
        value.toLongOrNull()?.let { return (it * 1000).coerceAtLeast(0) }
        return try {
            val date = SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US)
                .apply { timeZone = TimeZone.getTimeZone("GMT") }
                .parse(value) ?: return null
            (date.time - nowMillis).coerceAtLeast(0)
        } catch (e: java.text.ParseException) {
            null
        }
    }
}
