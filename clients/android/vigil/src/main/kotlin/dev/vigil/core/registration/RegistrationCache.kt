package dev.vigil.core.registration

import dev.vigil.core.json.Json
import dev.vigil.core.model.Parsing
import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.platform.KeyValueStore

/**
 * The last registration the server reported, kept so `device.registration` answers offline. Every server answer
 * (register, deactivate, GET registration, the device block of an event) overwrites it: the server wins.
 */
internal class RegistrationCache(private val store: KeyValueStore) {
    fun get(): RegistrationStatus {
        val text = store.getString(KEY) ?: return RegistrationStatus.UNKNOWN
        return try {
            val m = Json.parseObject(text)
            Parsing.registrationStatus(m, (m["fetched_at_ms"] as? Number)?.toLong() ?: 0L)
        } catch (e: RuntimeException) {
            RegistrationStatus.UNKNOWN
        }
    }

    fun put(status: RegistrationStatus) {
        store.putString(
            KEY,
            Json.stringify(
                mapOf(
                    "is_registered" to status.isRegistered,
                    "user_id" to status.userId,
                    "is_active" to status.isActive,
                    "role" to status.role,
                    "status" to status.status,
                    "registered_at" to status.registeredAt,
                    "metadata" to status.metadata,
                    "fetched_at_ms" to status.fetchedAtMillis,
                )
            )
        )
    }

    private companion object {
        const val KEY = "vigil.registration"
    }
}
