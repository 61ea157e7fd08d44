package dev.vigil.core

/**
 * Receiver of the `{ "role" to "teller"; "branch" to "north" }` blocks. The member `to` wins over the standard
 * library's Pair-building `to`, so each line records a property instead of building a discarded Pair.
 */
class PropertiesBuilder {
    private val values = LinkedHashMap<String, Any?>()

    infix fun String.to(value: Any?) {
        values[this] = value
    }

    fun put(key: String, value: Any?): PropertiesBuilder = apply { values[key] = value }

    fun putAll(map: Map<String, Any?>): PropertiesBuilder = apply { values.putAll(map) }

    fun build(): Map<String, Any?> = LinkedHashMap(values)

    companion object {
        inline fun build(block: PropertiesBuilder.() -> Unit): Map<String, Any?> = PropertiesBuilder().apply(block).build()
    }
}
