package dev.vigil.testing

import android.content.Context
import android.net.ConnectivityManager
import android.net.Network
import android.net.NetworkCapabilities
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowNetworkCapabilities

/**
 * The (Robolectric) device's connectivity. Robolectric's default network has no INTERNET capability, unlike a
 * connected phone, so [connect] gives it one. [goOffline]/[goOnline] drop and restore the default network;
 * Robolectric then calls the registered callbacks' onLost/onAvailable, as Android does.
 */
object DeviceNetwork {
    private val manager: ConnectivityManager
        get() = RuntimeEnvironment.getApplication().getSystemService(Context.CONNECTIVITY_SERVICE) as ConnectivityManager

    /**
     * Whether a request leaving the device now would get out. Read at send time by [RecordingHttpClient]: the
     * library checks connectivity before a sync, but the network can drop between that check and the request,
     * and on a phone that request fails. Robolectric's network is only a model, so the test client must enforce it.
     */
    val isUp: Boolean
        get() {
            val cm = manager
            val network = cm.activeNetwork ?: return false
            return cm.getNetworkCapabilities(network)?.hasCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET) == true
        }

    private var savedInfo: android.net.NetworkInfo? = null
    private var savedNetwork: Network? = null

    fun connect() {
        val cm = manager
        val network = cm.activeNetwork ?: error("Robolectric has no default network")
        savedNetwork = network
        shadowOf(cm).setNetworkCapabilities(network, internetCapabilities())
    }

    fun goOffline() {
        val cm = manager
        @Suppress("DEPRECATION")
        savedInfo = savedInfo ?: cm.activeNetworkInfo
        shadowOf(cm).setDefaultNetworkActive(false)
        shadowOf(cm).setActiveNetworkInfo(null)
    }

    fun goOnline() {
        val cm = manager
        shadowOf(cm).setActiveNetworkInfo(savedInfo ?: error("goOnline before goOffline"))
        shadowOf(cm).setNetworkCapabilities(savedNetwork ?: error("connect() first"), internetCapabilities())
        shadowOf(cm).setDefaultNetworkActive(true)
    }

    private fun internetCapabilities(): NetworkCapabilities = ShadowNetworkCapabilities.newInstance().also { caps ->
        shadowOf(caps).addTransportType(NetworkCapabilities.TRANSPORT_WIFI)
        shadowOf(caps).addCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET)
        shadowOf(caps).addCapability(NetworkCapabilities.NET_CAPABILITY_VALIDATED)
    }
}
