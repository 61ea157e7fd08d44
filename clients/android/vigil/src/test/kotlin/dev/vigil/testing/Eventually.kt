package dev.vigil.testing

/** Waits for background work (a sync on reconnect) without asserting on timings. */
fun eventually(timeoutMillis: Long = 30_000, what: String, condition: () -> Boolean) {
    val deadline = System.currentTimeMillis() + timeoutMillis
    while (!condition()) {
        if (System.currentTimeMillis() > deadline) throw AssertionError("timed out waiting for: $what")
        Thread.sleep(50)
    }
}
