package dev.vigil.core

import dev.vigil.core.json.Json
import dev.vigil.core.platform.KeyValueStore

/** The last insights the server sent, so an offline `track` can answer with the device's last known state. */
internal class InsightsCache(private val store: KeyValueStore) {
    fun get(): Map<String, Any?> = try {
        store.getString(KEY)?.let { Json.parseObject(it) } ?: emptyMap()
    } catch (e: RuntimeException) {
        emptyMap()
    }

    fun put(insights: Map<String, Any?>) {
        val kept = insights.filterKeys { it in FIELDS }
        store.putString(KEY, Json.stringify(kept))
    }

    /** `Vigil.reset()`: the next user must not see the previous one's score and tags offline. */
    fun clear() = store.putString(KEY, null)

    private companion object {
        const val KEY = "vigil.last_insights"
        val FIELDS = setOf("risk_score", "current_tags", "behaviors", "device", "handprint_id", "device_id_details")
    }
}
