package dev.vigil.core.model

/** An event written to the local queue and not yet acknowledged by the server. */
data class PendingEvent(
    /** The library's id for the event; sent as properties.event_id so a resend is stored once. */
    val id: String,
    val name: String,
    val identity: String?,
    /** When it happened (epoch millis); sent as properties.timestamp. */
    val occurredAtMillis: Long,
    /** The JSON object of properties, exactly as it will be sent (without event_id and timestamp). */
    val propertiesJson: String,
    val attempts: Int,
)
