package dev.vigil.core.sync

/**
 * Wakes the app to send what is queued when this process may be gone: Android schedules a JobScheduler job that
 * runs once a network is connected. The core asks for it whenever events stay queued, and cancels it once the
 * queue is empty.
 */
internal interface DeliveryScheduler {
    /** Makes sure a delivery runs once the device is online, even after the process died. Idempotent. */
    fun schedule()

    /** Nothing is left to send. */
    fun cancel()

    companion object {
        val NONE: DeliveryScheduler = object : DeliveryScheduler {
            override fun schedule() = Unit
            override fun cancel() = Unit
        }
    }
}
