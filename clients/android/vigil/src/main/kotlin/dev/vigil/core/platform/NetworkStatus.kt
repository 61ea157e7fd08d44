package dev.vigil.core.platform

/**
 * Whether the device can reach the network, and a way to hear when it comes back. On Android this is a
 * ConnectivityManager callback; on a plain JVM it can be [AlwaysOnline].
 */
internal interface NetworkStatus {
    val isOnline: Boolean

    /** Calls [onAvailable] whenever connectivity returns. Returns a handle that stops listening. */
    fun observe(onAvailable: () -> Unit): AutoCloseable

    object AlwaysOnline : NetworkStatus {
        override val isOnline: Boolean get() = true
        override fun observe(onAvailable: () -> Unit): AutoCloseable = AutoCloseable { }
    }
}
