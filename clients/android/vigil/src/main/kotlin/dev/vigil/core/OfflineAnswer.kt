package dev.vigil.core

import dev.vigil.core.model.DeviceInfo
import dev.vigil.core.model.Parsing
import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.model.VigilResponse

/**
 * The answer `track` gives while the server is out of reach: the last server state, the cached registration
 * and this device's local checks. A local tag (emulator, rooted, hooked) is one the server would give: its
 * evidence reaches weight 1 in the server's own table ([dev.vigil.core.signals.LocalTags]); only such a tag raises
 * the score to at least [LOCAL_CRITICAL_SCORE], because the caller must be able to block on it offline, while a
 * single weak piece of evidence (a debuggable build) neither tags nor raises the score.
 */
internal object OfflineAnswer {
    const val LOCAL_CRITICAL_SCORE = 0.9

    fun build(
        deviceId: String,
        clientEventId: String,
        lastInsights: Map<String, Any?>,
        registration: RegistrationStatus,
        localTags: Set<String>,
    ): VigilResponse {
        val cachedDevice = Parsing.deviceInfo(lastInsights["device"])
        val device = if (registration.fetchedAtMillis != null) overlay(cachedDevice, registration) else cachedDevice
        val cachedScore = (Parsing.double(lastInsights["risk_score"]) ?: 0.0).coerceIn(0.0, 1.0)
        val score = if (localTags.isEmpty()) cachedScore else maxOf(cachedScore, LOCAL_CRITICAL_SCORE)
        val tags = LinkedHashSet<String>().apply {
            addAll(Parsing.strings(lastInsights["current_tags"]) ?: emptyList())
            addAll(localTags)
        }
        return VigilResponse(
            deviceId = deviceId,
            device = device.copy(isTrusted = device.isTrusted && localTags.isEmpty()),
            riskScore = score,
            tags = tags,
            behaviors = Parsing.behaviors(lastInsights["behaviors"]),
            phoneIntel = null,
            emailIntel = null,
            eventId = null,
            clientEventId = clientEventId,
            handprintId = Parsing.string(lastInsights["handprint_id"]),
            isOffline = true,
            localTags = localTags,
            warnings = listOf("offline: event queued; values are cached"),
        )
    }

    private fun overlay(d: DeviceInfo, r: RegistrationStatus) = d.copy(
        isRegistered = r.isRegistered,
        isTrusted = d.isTrusted && r.isActive,
        registeredTo = r.userId,
        registeredAt = r.registeredAt,
        role = r.role,
        metadata = r.metadata,
        status = r.status,
    )
}
