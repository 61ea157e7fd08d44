package dev.vigil.core.model

/**
 * Phone intelligence. The server's fields are not fixed yet, so the raw object is kept and the common ones are
 * read from it.
 */
data class PhoneIntel(val raw: Map<String, Any?>) {
    operator fun get(field: String): Any? = raw[field]
}

/** E-mail intelligence; see [PhoneIntel] for why it wraps the raw object. */
data class EmailIntel(val raw: Map<String, Any?>) {
    operator fun get(field: String): Any? = raw[field]
}
