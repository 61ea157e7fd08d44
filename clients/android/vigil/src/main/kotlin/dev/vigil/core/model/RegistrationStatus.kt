package dev.vigil.core.model

/**
 * This device's registration as last seen from the server. Served from the local cache when offline;
 * [fetchedAtMillis] says how fresh it is (null: never fetched).
 */
data class RegistrationStatus(
    val isRegistered: Boolean,
    val userId: String?,
    val isActive: Boolean,
    val role: String?,
    /** "unregistered", "active" or "deactivated". */
    val status: String,
    val registeredAt: String?,
    val metadata: Map<String, Any?>,
    val fetchedAtMillis: Long?,
) {
    companion object {
        val UNKNOWN = RegistrationStatus(false, null, false, null, "unregistered", null, emptyMap(), null)
    }
}
