package dev.vigil.android.signals

/** Evidence of instrumentation: Frida (mapped libraries, default port), Xposed/LSPosed and Substrate classes. */
internal object HookCheck {
    private val mapMarkers = listOf("frida", "gum-js-loop", "gadget", "xposed", "lsposed", "edxp", "substrate", "libriru")
    private val hookClasses = listOf(
        "de.robv.android.xposed.XposedBridge", "de.robv.android.xposed.XposedHelpers",
        "com.saurik.substrate.MS", "org.lsposed.lspd.core.Main",
    )
    const val FRIDA_PORT = 27042

    fun run(probe: DeviceProbe): CheckResult {
        val evidence = LinkedHashSet<String>()
        probe.forEachLine("/proc/self/maps") { line ->
            val lower = line.lowercase()
            mapMarkers.firstOrNull { lower.contains(it) }?.let { marker ->
                evidence += "maps:$marker:" + line.substringAfterLast(' ').takeLast(120)
            }
            evidence.size < 10
        }
        hookClasses.filter(probe::classExists).forEach { evidence += "class:$it" }
        if (probe.isLocalPortOpen(FRIDA_PORT)) evidence += "port:$FRIDA_PORT"
        return CheckResult(evidence.toList())
    }
}
