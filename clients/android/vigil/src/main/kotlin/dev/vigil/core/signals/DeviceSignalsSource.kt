package dev.vigil.core.signals

/**
 * Produces the `device_signals` property block sent with every event (see the README for its fields). The
 * server decides the tags; the client judges the same evidence with the server's table ([LocalTags]) for offline answers.
 */
internal fun interface DeviceSignalsSource {
    fun collect(): Map<String, Any?>

    companion object {
        val NONE = DeviceSignalsSource { emptyMap() }
    }
}
