package dev.vigil.core.queue

import dev.vigil.core.model.PendingEvent

/**
 * The durable queue every event is written to before it is sent. Implementations must make [enqueue] durable
 * before returning and keep insertion order. Bounded: when full, the oldest events are dropped and counted.
 */
internal interface EventQueue {
    /** Stores [event]; returns how many old events were dropped to make room. */
    fun enqueue(event: PendingEvent): Int

    /** The oldest [limit] events, oldest first. */
    fun peek(limit: Int): List<PendingEvent>

    fun all(): List<PendingEvent>

    fun remove(ids: Collection<String>)

    /** Records a failed delivery attempt (kept for diagnostics and backoff). */
    fun markAttempt(ids: Collection<String>)

    /** A count, never a load of the queue (SQL `COUNT(*)`). */
    fun size(): Int

    /** Events dropped because the queue was full, since the queue was created. */
    fun droppedCount(): Long

    /** Forgets every queued event (opt-out); the dropped count stays. */
    fun clear()
}
