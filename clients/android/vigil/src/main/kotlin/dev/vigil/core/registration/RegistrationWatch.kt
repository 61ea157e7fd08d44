package dev.vigil.core.registration

import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.platform.Logger
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import java.util.concurrent.CopyOnWriteArraySet

/** Hears this device's registration change: a transfer to another user, a deactivation, a reactivation, a new role. */
fun interface RegistrationListener {
    /** Runs on a background thread; an exception it throws is reported through the library's logger. */
    fun onRegistrationChanged(status: RegistrationStatus)
}

/**
 * Who hears registration changes: listeners and a [StateFlow]. A change is a different user, active state, status
 * or role; the same registration fetched again (only its fetch time differs) is not announced, so a sync that
 * confirms what the device already knew stays silent.
 */
internal class RegistrationWatch {
    private val state = MutableStateFlow(RegistrationStatus.UNKNOWN)
    private val listeners = CopyOnWriteArraySet<RegistrationListener>()

    /** The registration as of its last change; its value starts as the cached registration once the library runs. */
    val flow: StateFlow<RegistrationStatus> = state.asStateFlow()

    fun add(listener: RegistrationListener) {
        listeners += listener
    }

    fun remove(listener: RegistrationListener) {
        listeners -= listener
    }

    /** The starting point (what the cache holds): not a change, nobody is told. */
    fun seed(status: RegistrationStatus) {
        state.value = status
    }

    /** Records [status]; true when it is a change, which the caller then [announce]s outside its lock. */
    fun update(status: RegistrationStatus): Boolean {
        if (key(state.value) == key(status)) return false
        state.value = status
        return true
    }

    fun announce(status: RegistrationStatus, logger: Logger) {
        for (listener in listeners) {
            try {
                listener.onRegistrationChanged(status)
            } catch (e: Exception) {
                logger.log(Logger.Level.ERROR, "a registration listener threw", e)
            }
        }
    }

    private fun key(s: RegistrationStatus) = listOf(s.isRegistered, s.userId, s.isActive, s.status, s.role)

    companion object {
        /** How often the registration is fetched on its own schedule, besides on every sync (README: "Registration"). */
        const val DEFAULT_REFRESH_MILLIS = 5 * 60_000L
    }
}
