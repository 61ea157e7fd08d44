package dev.vigil.android.signals

import android.os.Build
import java.io.File
import java.net.InetSocketAddress
import java.net.Socket

/**
 * Reads the real device. [root] is "/" in production; the checks only ever see paths through it.
 */
internal class AndroidDeviceProbe(private val root: File = File("/")) : DeviceProbe {
    override val sdkInt: Int get() = Build.VERSION.SDK_INT

    override fun build(field: String): String? = when (field) {
        "FINGERPRINT" -> Build.FINGERPRINT
        "MODEL" -> Build.MODEL
        "MANUFACTURER" -> Build.MANUFACTURER
        "BRAND" -> Build.BRAND
        "DEVICE" -> Build.DEVICE
        "PRODUCT" -> Build.PRODUCT
        "HARDWARE" -> Build.HARDWARE
        "BOARD" -> Build.BOARD
        "TAGS" -> Build.TAGS
        else -> null
    }

    private fun file(path: String) = File(root, path.removePrefix("/"))

    override fun fileExists(path: String): Boolean = file(path).exists()

    override fun isWritable(path: String): Boolean = file(path).let { it.exists() && it.canWrite() }

    override fun forEachLine(path: String, onLine: (String) -> Boolean): Boolean = try {
        file(path).bufferedReader().use { reader ->
            while (true) {
                val line = reader.readLine() ?: break
                if (!onLine(line)) break
            }
        }
        true
    } catch (e: Exception) {
        false
    }

    /** android.os.SystemProperties is hidden API; reflection is the documented-by-practice way to read it. */
    override fun systemProperty(name: String): String? = try {
        val cls = Class.forName("android.os.SystemProperties")
        (cls.getMethod("get", String::class.java).invoke(null, name) as? String)?.takeIf { it.isNotEmpty() }
    } catch (e: Exception) {
        null
    }

    override fun classExists(name: String): Boolean = try {
        Class.forName(name, false, javaClass.classLoader)
        true
    } catch (e: Throwable) {
        false
    }

    override fun isLocalPortOpen(port: Int): Boolean = try {
        Socket().use { it.connect(InetSocketAddress("127.0.0.1", port), 50) }
        true
    } catch (e: Exception) {
        false
    }
}
