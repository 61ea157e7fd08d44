package dev.vigil.core.platform

/** Where the library reports problems it absorbed instead of throwing into the host app. */
fun interface Logger {
    fun log(level: Level, message: String, error: Throwable?)

    enum class Level { DEBUG, WARN, ERROR }

    companion object {
        val NONE: Logger = Logger { _, _, _ -> }
    }
}
