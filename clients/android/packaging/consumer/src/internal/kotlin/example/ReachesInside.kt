package example

// Must NOT compile: implementation classes are Kotlin `internal`, out of an app's reach (check.sh expects the
// compiler to refuse each of these).
internal fun reachInside(queue: dev.vigil.android.SqliteEventQueue, client: dev.vigil.core.VigilClient) = Unit
