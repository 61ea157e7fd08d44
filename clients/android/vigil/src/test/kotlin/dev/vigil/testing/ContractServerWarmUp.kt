package dev.vigil.testing

import org.junit.runner.Description
import org.junit.runner.notification.RunListener

/**
 * Starts the contract server in the background as the test run starts (a Surefire listener, vigil/pom.xml), when
 * the run holds contract tests: its start (Node, migrating a fresh database) then overlaps the Robolectric
 * sandboxes' start instead of following it. The first contract test waits for it in [ContractServer.get]; a
 * failed start is left to that call, which starts again and reports why.
 */
class ContractServerWarmUp : RunListener() {
    override fun testRunStarted(description: Description) {
        if (!holdsContractTests(description)) return
        Thread({ runCatching { ContractServer.get() } }, "contract-server-start").apply { isDaemon = true }.start()
    }

    private fun holdsContractTests(d: Description): Boolean =
        d.className.startsWith("dev.vigil.contract.") || d.children.any(::holdsContractTests)
}
