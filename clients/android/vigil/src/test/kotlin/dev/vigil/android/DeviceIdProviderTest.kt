package dev.vigil.android

import android.provider.Settings
import dev.vigil.core.platform.MemoryKeyValueStore
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment

@RunWith(RobolectricTestRunner::class)
class DeviceIdProviderTest {
    private val context = RuntimeEnvironment.getApplication()
    private val widevine = byteArrayOf(1, 2, 3, 4, 5)

    private fun setAndroidId(value: String?) {
        Settings.Secure.putString(context.contentResolver, Settings.Secure.ANDROID_ID, value)
    }

    /** A fresh store stands for a reinstall (or "clear data"): nothing of the old install remains. */
    private fun freshInstall(widevineId: ByteArray? = widevine) = DeviceIdProvider(context, MemoryKeyValueStore()) { widevineId }

    @Test
    fun `the id is a hash of ANDROID_ID and the Widevine id and survives a reinstall`() {
        setAndroidId("a1b2c3d4e5f60718")
        val first = freshInstall().get()
        val afterReinstall = freshInstall().get()

        assertEquals(first, afterReinstall)
        assertEquals(listOf("android_id", "widevine"), first.sources)
        assertTrue(first.id, first.id.matches(Regex("vd_[0-9a-f]{32}")))
        assertTrue("raw identifiers never appear", !first.id.contains("a1b2c3d4e5f60718"))
    }

    @Test
    fun `a factory reset or a new signing key changes ANDROID_ID and so the id`() {
        setAndroidId("a1b2c3d4e5f60718")
        val before = freshInstall().get().id
        setAndroidId("ffffeeeeddddcccc")
        assertNotEquals(before, freshInstall().get().id)
    }

    @Test
    fun `either source alone is enough`() {
        setAndroidId(null)
        assertEquals(listOf("widevine"), freshInstall().get().sources)
        setAndroidId("a1b2c3d4e5f60718")
        assertEquals(listOf("android_id"), freshInstall(widevineId = null).get().sources)
    }

    @Test
    fun `without either source a random id is stored and reused within the installation`() {
        setAndroidId(null)
        val store = MemoryKeyValueStore()
        val provider = DeviceIdProvider(context, store) { null }
        val first = provider.get()

        assertEquals(listOf("stored_random"), first.sources)
        assertEquals(first, DeviceIdProvider(context, store) { null }.get())
        assertNotEquals(first.id, freshInstall(widevineId = null).get().id)
    }

    @Test
    fun `a stored id is kept when a source later becomes unreadable`() {
        setAndroidId("a1b2c3d4e5f60718")
        val store = SharedPreferencesStore(context)
        val first = DeviceIdProvider(context, store) { widevine }.get()
        val later = DeviceIdProvider(context, store) { throw IllegalStateException("MediaDrm busy") }.get()
        assertEquals(first.id, later.id)
    }

    @Test
    fun `reading the platform's Widevine id never throws`() {
        // Robolectric's MediaDrm may or may not expose a device id; either way the answer is a value or null.
        val id = DeviceIdProvider.readWidevineId()
        assertTrue(id == null || id.isNotEmpty())
    }
}
