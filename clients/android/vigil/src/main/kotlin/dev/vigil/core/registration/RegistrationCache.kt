package dev.vigil.core.registration

import dev.vigil.core.json.Json
import dev.vigil.core.model.Parsing
import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.platform.KeyValueStore
import dev.vigil.core.platform.Logger

/**
 * The last registration the server reported, kept so `device.registration` answers offline. Every server answer
 * (register, deactivate, GET registration, the device block of an event) overwrites it: the server wins. A change
 * is announced through [watch] (listeners and the Flow), whichever answer brought it.
 */
internal class RegistrationCache(
    private val store: KeyValueStore,
    private val watch: RegistrationWatch = RegistrationWatch(),
    private val logger: Logger = Logger.NONE,
) {
    private val lock = Any()
    private var seeded = false

    /** Starts [watch] from the cached registration unless an answer came first. Reads storage: off the main thread. */
    fun seedWatch() {
        synchronized(lock) { seedLocked() }
    }

    private fun seedLocked() {
        if (seeded) return
        watch.seed(get())
        seeded = true
    }

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
        val changed = synchronized(lock) {
            seedLocked()
            write(status)
            watch.update(status)
        }
        // Outside the lock: a listener may call back into the library.
        if (changed) watch.announce(status, logger)
    }

    private fun write(status: RegistrationStatus) {
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
