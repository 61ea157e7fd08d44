package dev.vigil.core.queue

import dev.vigil.core.model.PendingEvent

/**
 * A queue that lives as long as the process. For plain-JVM hosts that accept losing unsent events on exit;
 * Android uses the SQLite queue.
 */
internal class MemoryEventQueue(private val capacity: Int = 10_000) : EventQueue {
    private val events = LinkedHashMap<String, PendingEvent>()
    private var dropped = 0L

    init {
        require(capacity > 0) { "capacity must be positive" }
    }

    @Synchronized
    override fun enqueue(event: PendingEvent): Int {
        events[event.id] = event
        var removed = 0
        while (events.size > capacity) {
            events.remove(events.keys.first())
            removed++
        }
        dropped += removed
        return removed
    }

    @Synchronized
    override fun peek(limit: Int): List<PendingEvent> = events.values.take(limit)

    @Synchronized
    override fun all(): List<PendingEvent> = events.values.toList()

    @Synchronized
    override fun remove(ids: Collection<String>) {
        ids.forEach { events.remove(it) }
    }

    @Synchronized
    override fun markAttempt(ids: Collection<String>) {
        ids.forEach { id -> events[id]?.let { events[id] = it.copy(attempts = it.attempts + 1) } }
    }

    @Synchronized
    override fun size(): Int = events.size

    @Synchronized
    override fun droppedCount(): Long = dropped

    @Synchronized
    override fun clear() = events.clear()
}
