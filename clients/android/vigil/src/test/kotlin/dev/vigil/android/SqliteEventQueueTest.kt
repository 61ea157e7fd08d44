package dev.vigil.android

import android.content.Context
import dev.vigil.core.model.PendingEvent
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment

@RunWith(RobolectricTestRunner::class)
class SqliteEventQueueTest {
    private val context: Context = RuntimeEnvironment.getApplication()
    private val opened = ArrayList<SqliteEventQueue>()

    private fun open(capacity: Int = 10_000) = SqliteEventQueue(context, capacity).also { opened += it }

    private fun event(id: String, at: Long = 1_000L) = PendingEvent(id, "transfer", "agent-7", at, """{"amount":100}""", 0)

    @After
    fun closeAll() = opened.forEach { it.close() }

    @Test
    fun `events come back oldest first with every field intact`() {
        val queue = open()
        queue.enqueue(event("a", 1))
        queue.enqueue(event("b", 2))
        queue.enqueue(event("c", 3))

        assertEquals(listOf("a", "b"), queue.peek(2).map { it.id })
        assertEquals(event("a", 1), queue.peek(1).single())
        assertEquals(3, queue.size())
    }

    @Test
    fun `a queued event survives closing and reopening the database`() {
        open().enqueue(event("kept"))
        opened.forEach { it.close() }

        val reopened = open()
        assertEquals(listOf("kept"), reopened.all().map { it.id })
    }

    @Test
    fun `the same event id is stored only once`() {
        val queue = open()
        queue.enqueue(event("a"))
        queue.enqueue(event("a"))
        assertEquals(1, queue.size())
    }

    @Test
    fun `a full queue drops the oldest events and counts them`() {
        val queue = open(capacity = 2)
        assertEquals(0, queue.enqueue(event("a")))
        assertEquals(0, queue.enqueue(event("b")))
        assertEquals(1, queue.enqueue(event("c")))
        assertEquals(listOf("b", "c"), queue.all().map { it.id })
        assertEquals(1L, queue.droppedCount())
    }

    @Test
    fun `removing and marking attempts touch only the given events`() {
        val queue = open()
        listOf("a", "b", "c").forEach { queue.enqueue(event(it)) }
        queue.markAttempt(listOf("b"))
        queue.remove(listOf("a", "missing"))
        assertEquals(listOf("b" to 1, "c" to 0), queue.all().map { it.id to it.attempts })
    }
}
