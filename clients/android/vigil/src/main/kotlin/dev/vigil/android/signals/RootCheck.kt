package dev.vigil.android.signals

/** Evidence of root: su and Magisk files, test-keys builds, dangerous properties, writable system paths. */
internal object RootCheck {
    private val suPaths = listOf(
        "/system/bin/su", "/system/xbin/su", "/sbin/su", "/su/bin/su", "/system/sd/xbin/su",
        "/system/bin/failsafe/su", "/data/local/su", "/data/local/xbin/su", "/data/local/bin/su",
        "/system/app/Superuser.apk", "/system/app/SuperSU.apk",
    )
    private val magiskPaths = listOf("/sbin/.magisk", "/data/adb/magisk", "/data/adb/modules", "/cache/magisk.log", "/data/adb/ksu")
    private val systemPaths = listOf("/system", "/system/bin", "/system/sbin", "/system/xbin", "/vendor/bin", "/etc")

    fun run(probe: DeviceProbe): CheckResult {
        val evidence = ArrayList<String>()
        suPaths.filter(probe::fileExists).forEach { evidence += "su:$it" }
        magiskPaths.filter(probe::fileExists).forEach { evidence += "magisk:$it" }
        val tags = probe.build("TAGS").orEmpty()
        if (tags.contains("test-keys")) evidence += "build.tags=$tags"
        if (probe.systemProperty("ro.debuggable") == "1") evidence += "prop.ro.debuggable=1"
        if (probe.systemProperty("ro.secure") == "0") evidence += "prop.ro.secure=0"
        if (probe.systemProperty("service.adb.root") == "1") evidence += "prop.service.adb.root=1"
        systemPaths.filter(probe::isWritable).forEach { evidence += "writable:$it" }
        return CheckResult(evidence)
    }
}
