package dev.vigil.core.sync

import dev.vigil.core.result.VigilError

/** What one sync achieved. Rejected events were dropped; everything else not delivered is still queued. */
data class SyncReport(
    val delivered: Int,
    val rejected: Map<String, VigilError>,
    val remaining: Int,
    /** Set when the sync stopped early and should be retried after this many milliseconds. */
    val retryAfterMillis: Long?,
    val lastError: VigilError?,
) {
    val isComplete: Boolean get() = retryAfterMillis == null
}
