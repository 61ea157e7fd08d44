package dev.vigil.android

import android.annotation.SuppressLint
import android.content.Context
import android.net.ConnectivityManager
import android.net.Network
import android.net.NetworkCapabilities
import android.net.NetworkRequest
import android.os.Build
import dev.vigil.core.platform.NetworkStatus

/**
 * Network state from ConnectivityManager (needs ACCESS_NETWORK_STATE). Without the permission or the service we
 * report "online" and let the HTTP attempt decide: wrongly saying offline would hold events back forever.
 */
internal class ConnectivityNetworkStatus(context: Context) : NetworkStatus {
    private val manager = (context.applicationContext ?: context).getSystemService(Context.CONNECTIVITY_SERVICE) as? ConnectivityManager

    @get:SuppressLint("MissingPermission")
    override val isOnline: Boolean
        get() {
            val cm = manager ?: return true
            return try {
                if (Build.VERSION.SDK_INT >= 23) {
                    val network = cm.activeNetwork ?: return false
                    val caps = cm.getNetworkCapabilities(network) ?: return false
                    caps.hasCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET)
                } else {
                    @Suppress("DEPRECATION")
                    cm.activeNetworkInfo?.isConnected == true
                }
            } catch (e: SecurityException) {
                true
            }
        }

    @SuppressLint("MissingPermission")
    override fun observe(onAvailable: () -> Unit): AutoCloseable {
        val cm = manager ?: return AutoCloseable { }
        val callback = object : ConnectivityManager.NetworkCallback() {
            override fun onAvailable(network: Network) = onAvailable()
        }
        return try {
            if (Build.VERSION.SDK_INT >= 24) {
                cm.registerDefaultNetworkCallback(callback)
            } else {
                cm.registerNetworkCallback(
                    NetworkRequest.Builder().addCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET).build(),
                    callback,
                )
            }
            AutoCloseable {
                try {
                    cm.unregisterNetworkCallback(callback)
                } catch (e: RuntimeException) {
                    // Already unregistered: nothing to undo.
                }
            }
        } catch (e: SecurityException) {
            AutoCloseable { }
        }
    }
}
