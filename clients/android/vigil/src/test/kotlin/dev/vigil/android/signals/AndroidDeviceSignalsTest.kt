package dev.vigil.android.signals

import android.os.Build
import dev.vigil.core.signals.LocalTags
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Rule
import org.junit.Test
import org.junit.rules.TemporaryFolder
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.shadows.ShadowBuild
import org.robolectric.shadows.ShadowSystemProperties
import java.io.File

@RunWith(RobolectricTestRunner::class)
class AndroidDeviceSignalsTest {
    @get:Rule
    val tmp = TemporaryFolder()

    private lateinit var root: File

    @Before
    fun pixel() {
        root = tmp.newFolder("device")
        ShadowBuild.setFingerprint("google/husky/husky:15/AP4A.250105.002/12701944:user/release-keys")
        ShadowBuild.setModel("Pixel 8 Pro")
        ShadowBuild.setManufacturer("Google")
        ShadowBuild.setBrand("google")
        ShadowBuild.setDevice("husky")
        ShadowBuild.setProduct("husky")
        ShadowBuild.setHardware("husky")
        ShadowBuild.setTags("release-keys")
        ShadowSystemProperties.override("ro.debuggable", "0")
        ShadowSystemProperties.override("ro.secure", "1")
        ShadowSystemProperties.override("ro.kernel.qemu", "0")
        ShadowSystemProperties.override("ro.hardware", "husky")
        write("proc/self/maps", "7f00-7f10 r-xp 00000000 fd:00 1 /system/lib64/libc.so\n")
    }

    private fun write(path: String, text: String = "") = File(root, path).apply { parentFile.mkdirs(); writeText(text) }

    private fun collect(): Map<String, Any?> = AndroidDeviceSignals(AndroidDeviceProbe(root)).collect()

    private fun section(signals: Map<String, Any?>, name: String) = signals[name] as Map<*, *>

    @Test
    fun `a clean phone produces a versioned block with no evidence`() {
        val signals = collect()
        assertEquals(1, signals["version"])
        assertEquals("android", signals["platform"])
        assertEquals(Build.VERSION.SDK_INT, signals["sdk_int"]) // the suite runs on API 23 and 35
        for (name in listOf("emulator", "root", "hooks")) {
            assertEquals(name, mapOf("detected" to false, "evidence" to emptyList<String>()), section(signals, name))
        }
        assertTrue(LocalTags.from(signals).isEmpty())
    }

    @Test
    fun `an emulator is recognised from its build and qemu properties`() {
        ShadowBuild.setFingerprint("google/sdk_gphone64_x86_64/emu64x:15/AE3A.240806.005/12228598:userdebug/dev-keys")
        ShadowBuild.setHardware("ranchu")
        ShadowSystemProperties.override("ro.kernel.qemu", "1")
        write("dev/qemu_pipe")

        val emulator = section(collect(), "emulator")
        assertEquals(true, emulator["detected"])
        val evidence = emulator["evidence"] as List<*>
        assertTrue(evidence.toString(), evidence.containsAll(listOf("build.hardware=ranchu", "prop.ro.kernel.qemu=1", "file:/dev/qemu_pipe")))
        assertTrue(evidence.any { (it as String).startsWith("build.fingerprint=") })
    }

    @Test
    fun `root is recognised from su, Magisk, test-keys and dangerous properties`() {
        write("system/xbin/su")
        File(root, "data/adb/magisk").mkdirs()
        ShadowBuild.setTags("test-keys")
        ShadowSystemProperties.override("ro.debuggable", "1")

        val signals = collect()
        val evidence = section(signals, "root")["evidence"] as List<*>
        assertTrue(evidence.toString(), evidence.containsAll(listOf("su:/system/xbin/su", "magisk:/data/adb/magisk", "build.tags=test-keys", "prop.ro.debuggable=1")))
        assertEquals(setOf("rooted"), LocalTags.from(signals))
    }

    @Test
    fun `a writable system partition counts as root evidence`() {
        File(root, "system").mkdirs()
        val evidence = section(collect(), "root")["evidence"] as List<*>
        assertTrue(evidence.toString(), evidence.contains("writable:/system"))
    }

    @Test
    fun `Frida mapped into the process is recognised as a hook`() {
        write("proc/self/maps", "7f00-7f10 r-xp 00000000 fd:00 1 /data/local/tmp/frida-agent-64.so\n")
        val signals = collect()
        val hooks = section(signals, "hooks")
        assertEquals(true, hooks["detected"])
        assertTrue(hooks["evidence"].toString(), (hooks["evidence"] as List<*>).any { (it as String).startsWith("maps:frida:") })
        assertEquals(setOf("hooked"), LocalTags.from(signals))
    }

    @Test
    fun `a check that cannot run reports its error and the others still run`() {
        val broken = object : DeviceProbe by AndroidDeviceProbe(root) {
            override fun forEachLine(path: String, onLine: (String) -> Boolean): Boolean = throw SecurityException("denied")
        }
        val signals = AndroidDeviceSignals(broken).collect()
        assertEquals("SecurityException: denied", section(signals, "hooks")["error"])
        assertFalse(section(signals, "root")["detected"] as Boolean)
    }

    @Test
    fun `results are reused for a while instead of rescanning for every event`() {
        var now = 0L
        val signals = AndroidDeviceSignals(AndroidDeviceProbe(root), clock = { now }, maxAgeMillis = 1_000)
        val first = signals.collect()
        write("system/xbin/su")
        assertEquals(first, signals.collect())
        now = 1_000
        assertEquals(true, section(signals.collect(), "root")["detected"])
    }
}
