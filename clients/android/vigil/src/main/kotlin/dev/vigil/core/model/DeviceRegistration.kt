package dev.vigil.core.model

/** The result of registering this device to a user. */
data class DeviceRegistration(
    val deviceId: String,
    val userId: String,
    val role: String?,
    /** ISO 8601 instant, as the server sent it. */
    val registeredAt: String,
    val metadata: Map<String, Any?>,
)
