package dev.vigil.core.platform

/** Wall-clock time, injected so queue timestamps and retry schedules are deterministic in tests. */
internal fun interface Clock {
    fun nowMillis(): Long

    companion object {
        val SYSTEM: Clock = Clock { System.currentTimeMillis() }
    }
}
