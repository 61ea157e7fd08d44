package dev.vigil.android

import dev.vigil.testing.DeviceNetwork
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment

@RunWith(RobolectricTestRunner::class)
class ConnectivityNetworkStatusTest {
    private val status = ConnectivityNetworkStatus(RuntimeEnvironment.getApplication())

    @Before
    fun connect() = DeviceNetwork.connect()

    @Test
    fun `a connected device is online`() {
        assertTrue(status.isOnline)
    }

    @Test
    fun `a network without internet access does not count as online`() {
        val cm = RuntimeEnvironment.getApplication().getSystemService(android.net.ConnectivityManager::class.java)!!
        org.robolectric.Shadows.shadowOf(cm).setNetworkCapabilities(cm.activeNetwork, org.robolectric.shadows.ShadowNetworkCapabilities.newInstance())
        assertFalse(status.isOnline)
    }

    @Test
    fun `losing the active network makes the device offline and getting it back makes it online`() {
        DeviceNetwork.goOffline()
        assertFalse(status.isOnline)
        DeviceNetwork.goOnline()
        assertTrue(status.isOnline)
    }

    @Test
    fun `the platform's network callback reports every reconnect until closed`() {
        var reconnects = 0
        val handle = status.observe { reconnects++ }
        val atRegistration = reconnects // Android reports the current default network right away
        DeviceNetwork.goOffline()
        DeviceNetwork.goOnline()
        assertEquals(atRegistration + 1, reconnects)

        handle.close()
        DeviceNetwork.goOffline()
        DeviceNetwork.goOnline()
        assertEquals(atRegistration + 1, reconnects)
    }
}
