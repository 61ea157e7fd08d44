package dev.vigil.core.platform

import java.util.UUID

/** Event ids double as idempotency keys, so tests need to predict them. */
internal fun interface IdGenerator {
    fun newId(): String

    companion object {
        val RANDOM_UUID: IdGenerator = IdGenerator { UUID.randomUUID().toString() }
    }
}
