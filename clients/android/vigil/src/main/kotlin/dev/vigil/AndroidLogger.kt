package dev.vigil

import android.util.Log
import dev.vigil.core.platform.Logger

/** Logs to logcat under the tag "Vigil". */
internal object AndroidLogger : Logger {
    override fun log(level: Logger.Level, message: String, error: Throwable?) {
        try {
            when (level) {
                Logger.Level.DEBUG -> Log.d("Vigil", message, error)
                Logger.Level.WARN -> Log.w("Vigil", message, error)
                Logger.Level.ERROR -> Log.e("Vigil", message, error)
            }
        } catch (e: RuntimeException) {
            // android.util.Log is a stub on a plain JVM; logging must never break the caller.
        }
    }
}
