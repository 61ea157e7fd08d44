package dev.vigil.android

import android.content.ContentValues
import android.content.Context
import android.database.DatabaseUtils
import android.database.sqlite.SQLiteDatabase
import android.database.sqlite.SQLiteOpenHelper
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.queue.EventQueue

/**
 * The durable event queue on the platform's SQLite. An insert is committed before [enqueue] returns, so an
 * event survives the app being killed right after `track`. Rows are ordered by an autoincrement sequence.
 */
internal class SqliteEventQueue(
    context: Context,
    private val capacity: Int = 10_000,
    databaseName: String = "vigil-events.db",
) : EventQueue, AutoCloseable {
    private val helper = Helper(context.applicationContext ?: context, databaseName)

    init {
        require(capacity > 0) { "capacity must be positive" }
    }

    override fun enqueue(event: PendingEvent): Int {
        val db = helper.writableDatabase
        db.beginTransaction()
        try {
            db.insertWithOnConflict(TABLE, null, ContentValues().apply {
                put("id", event.id)
                put("name", event.name)
                put("identity", event.identity)
                put("occurred_at", event.occurredAtMillis)
                put("properties", event.propertiesJson)
                put("attempts", event.attempts)
            }, SQLiteDatabase.CONFLICT_IGNORE)
            val overflow = (count(db) - capacity).coerceAtLeast(0)
            if (overflow > 0) {
                db.execSQL("DELETE FROM $TABLE WHERE seq IN (SELECT seq FROM $TABLE ORDER BY seq LIMIT $overflow)")
                db.execSQL("UPDATE $META SET value = value + $overflow WHERE key = 'dropped'")
            }
            db.setTransactionSuccessful()
            return overflow
        } finally {
            db.endTransaction()
        }
    }

    override fun peek(limit: Int): List<PendingEvent> = query("LIMIT ${limit.coerceAtLeast(0)}")

    override fun all(): List<PendingEvent> = query("")

    private fun query(limitClause: String): List<PendingEvent> {
        val out = ArrayList<PendingEvent>()
        helper.readableDatabase.rawQuery(
            "SELECT id, name, identity, occurred_at, properties, attempts FROM $TABLE ORDER BY seq $limitClause", null
        ).use { c ->
            while (c.moveToNext()) {
                out += PendingEvent(
                    id = c.getString(0),
                    name = c.getString(1),
                    identity = if (c.isNull(2)) null else c.getString(2),
                    occurredAtMillis = c.getLong(3),
                    propertiesJson = c.getString(4),
                    attempts = c.getInt(5),
                )
            }
        }
        return out
    }

    override fun remove(ids: Collection<String>) = inChunks(ids) { db, chunk, placeholders ->
        db.delete(TABLE, "id IN ($placeholders)", chunk)
    }

    override fun markAttempt(ids: Collection<String>) = inChunks(ids) { db, chunk, placeholders ->
        db.execSQL("UPDATE $TABLE SET attempts = attempts + 1 WHERE id IN ($placeholders)", chunk)
    }

    private fun inChunks(ids: Collection<String>, action: (SQLiteDatabase, Array<String>, String) -> Unit) {
        if (ids.isEmpty()) return
        val db = helper.writableDatabase
        db.beginTransaction()
        try {
            // SQLite limits bound parameters (999 on old versions).
            ids.chunked(500).forEach { chunk ->
                action(db, chunk.toTypedArray(), chunk.joinToString(",") { "?" })
            }
            db.setTransactionSuccessful()
        } finally {
            db.endTransaction()
        }
    }

    override fun size(): Int = count(helper.readableDatabase)

    override fun droppedCount(): Long =
        helper.readableDatabase.rawQuery("SELECT value FROM $META WHERE key = 'dropped'", null).use { c ->
            if (c.moveToFirst()) c.getLong(0) else 0L
        }

    override fun clear() {
        helper.writableDatabase.delete(TABLE, null, null)
    }

    override fun close() = helper.close()

    /** `SELECT COUNT(*)`: no row is read into memory, whatever the backlog. */
    private fun count(db: SQLiteDatabase): Int = DatabaseUtils.queryNumEntries(db, TABLE).toInt()

    private class Helper(context: Context, name: String) : SQLiteOpenHelper(context, name, null, 1) {
        override fun onCreate(db: SQLiteDatabase) {
            db.execSQL(
                "CREATE TABLE $TABLE (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, " +
                    "identity TEXT, occurred_at INTEGER NOT NULL, properties TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)"
            )
            db.execSQL("CREATE TABLE $META (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
            db.execSQL("INSERT INTO $META (key, value) VALUES ('dropped', 0)")
        }

        override fun onUpgrade(db: SQLiteDatabase, oldVersion: Int, newVersion: Int) = Unit
    }

    private companion object {
        const val TABLE = "events"
        const val META = "queue_meta"
    }
}
