package dev.vigil.android

import android.content.Context
import android.content.SharedPreferences
import dev.vigil.core.platform.KeyValueStore

/** Settings in private SharedPreferences. commit() rather than apply(): callers are off the main thread and
 *  the registration cache and last sync time must be on disk before we report success. */
internal class SharedPreferencesStore(context: Context, name: String = "dev.vigil") : KeyValueStore {
    // Opened on first use, which is off the main thread (Vigil.init runs there and must not touch the disk).
    private val prefs: SharedPreferences by lazy { (context.applicationContext ?: context).getSharedPreferences(name, Context.MODE_PRIVATE) }

    override fun getString(key: String): String? = prefs.getString(key, null)

    override fun putString(key: String, value: String?) {
        val editor = prefs.edit()
        if (value == null) editor.remove(key) else editor.putString(key, value)
        editor.commit()
    }
}
