package dev.vigil.core.model

/**
 * What `track` answers: the Android response object the README documents, plus where it came from.
 *
 * When [isOffline] is true the event is safely queued and the values are the last ones the server sent,
 * combined with this device's local checks ([localTags]); the server's answer for this event arrives on sync.
 */
data class VigilResponse(
    val deviceId: String,
    val device: DeviceInfo,
    val riskScore: Double,
    val tags: Set<String>,
    val behaviors: Map<String, Behavior>,
    val phoneIntel: PhoneIntel?,
    val emailIntel: EmailIntel?,
    /** Vigil's id for the stored event; null while offline. */
    val eventId: String?,
    /** The id the library gave the event (its idempotency key). */
    val clientEventId: String,
    val handprintId: String?,
    val isOffline: Boolean,
    /** Tags implied by the local checks (emulator, rooted, hooked). */
    val localTags: Set<String>,
    val warnings: List<String>,
)
