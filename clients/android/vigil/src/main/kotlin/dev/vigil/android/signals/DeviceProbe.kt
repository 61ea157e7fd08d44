package dev.vigil.android.signals

/** What the local checks read from the device; one seam so the checks can be exercised on any file tree. */
internal interface DeviceProbe {
    val sdkInt: Int
    /** android.os.Build fields by name: FINGERPRINT, MODEL, MANUFACTURER, BRAND, DEVICE, PRODUCT, HARDWARE, BOARD, TAGS. */
    fun build(field: String): String?
    fun fileExists(path: String): Boolean
    fun isWritable(path: String): Boolean
    /** Calls [onLine] for each line of [path] until it returns false; false if the file is unreadable. */
    fun forEachLine(path: String, onLine: (String) -> Boolean): Boolean
    fun systemProperty(name: String): String?
    fun classExists(name: String): Boolean
    fun isLocalPortOpen(port: Int): Boolean
}
