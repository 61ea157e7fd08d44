package dev.vigil.core.signals

/**
 * Produces the `device_signals` property block sent with every event (see the README for its fields). The
 * server decides the tags; the client only uses [LocalTags] while offline.
 */
internal fun interface DeviceSignalsSource {
    fun collect(): Map<String, Any?>

    companion object {
        val NONE = DeviceSignalsSource { emptyMap() }
    }
}

/** Which critical tags the local evidence implies; used for offline answers only. */
internal object LocalTags {
    private val sections = linkedMapOf("emulator" to "emulator", "root" to "rooted", "hooks" to "hooked")

    fun from(signals: Map<String, Any?>): Set<String> = sections.mapNotNullTo(LinkedHashSet()) { (section, tag) ->
        val block = signals[section] as? Map<*, *>
        if (block?.get("detected") == true) tag else null
    }
}
