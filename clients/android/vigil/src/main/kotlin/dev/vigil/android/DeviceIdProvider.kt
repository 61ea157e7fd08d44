package dev.vigil.android

import android.content.Context
import android.media.MediaDrm
import android.os.Build
import android.provider.Settings
import dev.vigil.core.platform.KeyValueStore
import java.security.MessageDigest
import java.util.UUID

/**
 * The persistent device id.
 *
 * Derived from ANDROID_ID and the Widevine (MediaDrm) device unique id, hashed together so neither raw
 * identifier leaves the device. Both survive an app reinstall, so the id does too. It changes on a factory
 * reset, for another user profile, and (API 26+, where ANDROID_ID is scoped to the signing key) when the app is
 * signed with another key. When neither source is readable, a random id is stored instead; that one does not
 * survive a reinstall or "clear data". Once computed, the id is stored and reused, so a source that is
 * temporarily unreadable does not change it within an installation.
 */
internal class DeviceIdProvider(
    private val context: Context,
    private val store: KeyValueStore,
    private val widevine: () -> ByteArray? = ::readWidevineId,
) {
    data class DeviceIdentity(val id: String, val sources: List<String>)

    fun get(): DeviceIdentity {
        val stored = store.getString(KEY_ID)
        if (!stored.isNullOrEmpty()) {
            return DeviceIdentity(stored, store.getString(KEY_SOURCES)?.split(',')?.filter { it.isNotEmpty() } ?: emptyList())
        }
        val identity = derive()
        store.putString(KEY_ID, identity.id)
        store.putString(KEY_SOURCES, identity.sources.joinToString(","))
        return identity
    }

    private fun derive(): DeviceIdentity {
        val androidId = readAndroidId()
        val widevineId = try {
            widevine()?.takeIf { it.isNotEmpty() }
        } catch (e: Exception) {
            null
        }
        if (androidId == null && widevineId == null) {
            return DeviceIdentity(PREFIX + UUID.randomUUID().toString().replace("-", ""), listOf("stored_random"))
        }
        val sources = ArrayList<String>()
        val material = StringBuilder("vigil-device-id:v1")
        if (androidId != null) {
            sources += "android_id"
            material.append("\nandroid_id=").append(androidId)
        }
        if (widevineId != null) {
            sources += "widevine"
            material.append("\nwidevine=").append(hex(widevineId))
        }
        val digest = MessageDigest.getInstance("SHA-256").digest(material.toString().toByteArray(Charsets.UTF_8))
        return DeviceIdentity(PREFIX + hex(digest).substring(0, 32), sources)
    }

    private fun readAndroidId(): String? = try {
        Settings.Secure.getString(context.contentResolver, Settings.Secure.ANDROID_ID)
            ?.takeIf { it.isNotBlank() && it != BROKEN_ANDROID_ID }
    } catch (e: Exception) {
        null
    }

    companion object {
        const val PREFIX = "vd_"
        private const val KEY_ID = "vigil.device_id"
        private const val KEY_SOURCES = "vigil.device_id_sources"

        /** Shared by many Android 2.2 devices; never an identifier. */
        private const val BROKEN_ANDROID_ID = "9774d56d682e549c"
        private val WIDEVINE_UUID: UUID = UUID(-0x121074568629b532L, -0x5c37d8232ae2de13L)

        fun readWidevineId(): ByteArray? {
            if (Build.VERSION.SDK_INT < 18) return null
            var drm: MediaDrm? = null
            return try {
                drm = MediaDrm(WIDEVINE_UUID)
                drm.getPropertyByteArray(MediaDrm.PROPERTY_DEVICE_UNIQUE_ID)
            } catch (e: Exception) {
                null
            } finally {
                try {
                    if (Build.VERSION.SDK_INT >= 28) drm?.close() else @Suppress("DEPRECATION") drm?.release()
                } catch (e: Exception) {
                    // Releasing a failed session must not hide the id we already have.
                }
            }
        }

        private fun hex(bytes: ByteArray): String = bytes.joinToString("") { String.format("%02x", it.toInt() and 0xff) }
    }
}
