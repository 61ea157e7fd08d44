package dev.vigil.core.model

/** Lenient readers for server JSON: a missing or mistyped field becomes a default, never a crash. */
internal object Parsing {
    fun map(v: Any?): Map<String, Any?> {
        if (v !is Map<*, *>) return emptyMap()
        return v.entries.associate { (k, value) -> k.toString() to value }
    }

    fun string(v: Any?): String? = v as? String
    fun bool(v: Any?, default: Boolean = false): Boolean = v as? Boolean ?: default
    fun double(v: Any?): Double? = (v as? Number)?.toDouble()
    fun long(v: Any?): Long? = (v as? Number)?.toLong()
    fun strings(v: Any?): List<String>? = (v as? List<*>)?.mapNotNull { it as? String }

    fun deviceInfo(v: Any?): DeviceInfo {
        val m = map(v)
        if (m.isEmpty()) return DeviceInfo.UNKNOWN
        return DeviceInfo(
            isRegistered = bool(m["is_registered"]),
            isTrusted = bool(m["is_trusted"]),
            registeredTo = string(m["registered_to"]),
            registeredAt = string(m["registered_at"]),
            role = string(m["role"]),
            metadata = map(m["metadata"]),
            ageDays = long(m["age_days"])?.toInt() ?: 0,
            isNew = bool(m["is_new"], default = true),
            model = string(m["model"]),
            osVersion = string(m["os_version"]),
            status = string(m["status"]) ?: if (bool(m["is_registered"])) "active" else "unregistered",
        )
    }

    fun behaviors(v: Any?): Map<String, Behavior> = map(v).mapValues { (_, b) ->
        val m = map(b)
        Behavior(long(m["count"]), double(m["sum"]), long(m["unique"]), strings(m["values"]))
    }

    fun response(insights: Map<String, Any?>, deviceId: String, clientEventId: String, localTags: Set<String>): VigilResponse =
        VigilResponse(
            deviceId = string(insights["device_id"]) ?: deviceId,
            device = deviceInfo(insights["device"]),
            riskScore = (double(insights["risk_score"]) ?: 0.0).coerceIn(0.0, 1.0),
            tags = strings(insights["current_tags"])?.toSet() ?: emptySet(),
            behaviors = behaviors(insights["behaviors"]),
            phoneIntel = (insights["phone_intel"] as? Map<*, *>)?.let { PhoneIntel(map(it)) },
            emailIntel = (insights["email_intel"] as? Map<*, *>)?.let { EmailIntel(map(it)) },
            eventId = string(insights["event_id"]),
            clientEventId = clientEventId,
            handprintId = string(insights["handprint_id"]),
            isOffline = false,
            localTags = localTags,
            warnings = warnings(insights["warnings"]),
        )

    private fun warnings(v: Any?): List<String> = (v as? List<*>)?.mapNotNull {
        when (it) {
            is String -> it
            is Map<*, *> -> (it["message"] ?: it["code"])?.toString()
            else -> null
        }
    } ?: emptyList()

    fun registrationStatus(v: Map<String, Any?>, fetchedAtMillis: Long): RegistrationStatus {
        val registered = bool(v["is_registered"])
        val status = string(v["status"]) ?: if (registered) "active" else "unregistered"
        return RegistrationStatus(
            isRegistered = registered,
            userId = string(v["user_id"]),
            isActive = bool(v["is_active"], default = status == "active"),
            role = string(v["role"]),
            status = status,
            registeredAt = string(v["registered_at"]),
            metadata = map(v["metadata"]),
            fetchedAtMillis = fetchedAtMillis,
        )
    }

    /** The `device` block of an event response says the same thing as the registry, so it refreshes the cache. */
    fun registrationFromDevice(d: DeviceInfo, fetchedAtMillis: Long): RegistrationStatus = RegistrationStatus(
        isRegistered = d.isRegistered,
        userId = d.registeredTo,
        isActive = d.status == "active",
        role = d.role,
        status = d.status,
        registeredAt = d.registeredAt,
        metadata = d.metadata,
        fetchedAtMillis = fetchedAtMillis,
    )
}
