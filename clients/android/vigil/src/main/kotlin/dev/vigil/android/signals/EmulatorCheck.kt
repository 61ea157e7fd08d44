package dev.vigil.android.signals

/** Evidence that the app runs on an emulator: build identity, emulator hardware, qemu properties and devices. */
internal object EmulatorCheck {
    private val hardware = setOf("goldfish", "ranchu", "vbox86", "nox", "ttvm_x86")
    private val files = listOf("/dev/qemu_pipe", "/dev/socket/qemud", "/dev/goldfish_pipe", "/system/lib/libc_malloc_debug_qemu.so", "/sys/qemu_trace", "/system/bin/qemu-props")

    fun run(probe: DeviceProbe): CheckResult {
        val evidence = ArrayList<String>()
        val fingerprint = probe.build("FINGERPRINT").orEmpty()
        if (fingerprint.startsWith("generic") || fingerprint.startsWith("unknown") || fingerprint.contains("emulator") ||
            fingerprint.contains("sdk_gphone")
        ) evidence += "build.fingerprint=$fingerprint"
        val model = probe.build("MODEL").orEmpty()
        if (model.contains("google_sdk") || model.contains("Emulator") || model.contains("Android SDK built for") ||
            model.startsWith("sdk_gphone")
        ) evidence += "build.model=$model"
        val hw = probe.build("HARDWARE").orEmpty()
        if (hw in hardware) evidence += "build.hardware=$hw"
        val product = probe.build("PRODUCT").orEmpty()
        if (product == "sdk" || product == "google_sdk" || product.startsWith("sdk_") || product.contains("emulator") ||
            product.contains("simulator") || product.contains("vbox86p")
        ) evidence += "build.product=$product"
        if (probe.build("MANUFACTURER").orEmpty().contains("Genymotion")) evidence += "build.manufacturer=Genymotion"
        if (probe.build("BRAND").orEmpty().startsWith("generic") && probe.build("DEVICE").orEmpty().startsWith("generic")) {
            evidence += "build.brand_and_device=generic"
        }
        if (probe.systemProperty("ro.kernel.qemu") == "1") evidence += "prop.ro.kernel.qemu=1"
        probe.systemProperty("ro.hardware")?.let { if (it in hardware) evidence += "prop.ro.hardware=$it" }
        if (probe.systemProperty("ro.boot.qemu") == "1") evidence += "prop.ro.boot.qemu=1"
        files.filter(probe::fileExists).forEach { evidence += "file:$it" }
        return CheckResult(evidence)
    }
}
