package dev.vigil.core.model

/** The server's view of this device, as carried in every event response. */
data class DeviceInfo(
    val isRegistered: Boolean,
    /** Registered AND not flagged. */
    val isTrusted: Boolean,
    val registeredTo: String?,
    /** ISO 8601 instant, as the server sent it. */
    val registeredAt: String?,
    val role: String?,
    val metadata: Map<String, Any?>,
    val ageDays: Int,
    val isNew: Boolean,
    val model: String?,
    val osVersion: String?,
    /** "unregistered", "active" or "deactivated". */
    val status: String,
) {
    companion object {
        val UNKNOWN = DeviceInfo(
            isRegistered = false, isTrusted = false, registeredTo = null, registeredAt = null, role = null,
            metadata = emptyMap(), ageDays = 0, isNew = true, model = null, osVersion = null, status = "unregistered",
        )
    }
}
