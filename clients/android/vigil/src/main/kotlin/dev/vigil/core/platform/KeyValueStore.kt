package dev.vigil.core.platform

import java.util.concurrent.ConcurrentHashMap

/** Small durable settings: cached registration, identity, last sync time, dropped-event counter. */
internal interface KeyValueStore {
    fun getString(key: String): String?
    fun putString(key: String, value: String?)
}

/** A process-lifetime store, for hosts without durable settings and for tests of the core alone. */
internal class MemoryKeyValueStore : KeyValueStore {
    private val values = ConcurrentHashMap<String, String>()
    override fun getString(key: String): String? = values[key]
    override fun putString(key: String, value: String?) {
        if (value == null) values.remove(key) else values[key] = value
    }
}
