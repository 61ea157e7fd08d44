package dev.vigil.core.sync

import kotlin.random.Random

/** Exponential backoff with jitter; randomness injected so retry tests are deterministic. */
class Backoff(
    private val baseMillis: Long = 2_000,
    private val maxMillis: Long = 5 * 60_000,
    private val random: Random = Random.Default,
) {
    private var failures = 0

    @Synchronized
    fun nextDelayMillis(retryAfterMillis: Long?): Long {
        val exponent = failures.coerceAtMost(20)
        failures++
        if (retryAfterMillis != null) return retryAfterMillis.coerceAtMost(maxMillis)
        val ceiling = (baseMillis shl exponent).coerceAtMost(maxMillis)
        // Half fixed, half random: devices that went offline together must not come back in lockstep.
        return ceiling / 2 + (random.nextDouble() * (ceiling / 2)).toLong()
    }

    @Synchronized
    fun reset() {
        failures = 0
    }
}
