package dev.vigil.core.model

/** A behavioral counter from the server (for example transactions in the last hour). */
data class Behavior(
    val count: Long?,
    val sum: Double?,
    val unique: Long?,
    val values: List<String>?,
)
