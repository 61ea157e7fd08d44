package dev.vigil.android.signals

import dev.vigil.core.platform.Clock
import dev.vigil.core.signals.DeviceSignalsSource

/**
 * Builds the versioned `device_signals` block (README: "device_signals"). Each check runs on its own so one
 * failing check is reported as data and never hides the others. Results are reused for [maxAgeMillis]:
 * scanning /proc/self/maps for every event would waste the battery.
 */
internal class AndroidDeviceSignals(
    private val probe: DeviceProbe = AndroidDeviceProbe(),
    private val clock: Clock = Clock.SYSTEM,
    private val maxAgeMillis: Long = 5 * 60_000L,
) : DeviceSignalsSource {
    private var cached: Map<String, Any?>? = null
    private var cachedAt = 0L

    @Synchronized
    override fun collect(): Map<String, Any?> {
        val now = clock.nowMillis()
        cached?.let { if (now - cachedAt in 0 until maxAgeMillis) return it }
        val fresh = linkedMapOf<String, Any?>(
            "version" to VERSION,
            "platform" to "android",
            "sdk_int" to safely { probe.sdkInt },
            "emulator" to run(EmulatorCheck::run),
            "root" to run(RootCheck::run),
            "hooks" to run(HookCheck::run),
            "collected_at_ms" to now,
        )
        cached = fresh
        cachedAt = now
        return fresh
    }

    private fun run(check: (DeviceProbe) -> CheckResult): Map<String, Any?> = try {
        check(probe).toMap()
    } catch (e: Throwable) {
        CheckResult(emptyList(), e.javaClass.simpleName + ": " + (e.message ?: "")).toMap()
    }

    private fun <T> safely(block: () -> T): T? = try {
        block()
    } catch (e: Throwable) {
        null
    }

    companion object {
        const val VERSION = 1
    }
}
