package dev.vigil.android.signals

/** One check's evidence. A check that failed to run says so in [error] instead of breaking the others. */
internal data class CheckResult(val evidence: List<String>, val error: String? = null) {
    val detected: Boolean get() = evidence.isNotEmpty()

    fun toMap(): Map<String, Any?> = linkedMapOf<String, Any?>("detected" to detected, "evidence" to evidence).also {
        if (error != null) it["error"] = error
    }
}
