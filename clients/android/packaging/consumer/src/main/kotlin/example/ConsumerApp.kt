package example

import android.app.Application
import dev.vigil.Vigil
import dev.vigil.core.result.VigilResult

/** The README's "Use" section, as an app writes it: compiles only if the published API is what it documents. */
class ConsumerApp : Application() {
    override fun onCreate() {
        super.onCreate()
        Vigil.init(this) {
            apiKey = "vigil_ck_example"
            endpoint = "https://vigil.example.com"
            registrationRefreshIntervalMillis = 10 * 60_000L
            connectTimeoutMillis = 10_000
            readTimeoutMillis = 15_000
        }
    }

    suspend fun signOut(optOut: Boolean): Int {
        Vigil.reset()
        if (optOut) Vigil.setEnabled(false)
        return if (Vigil.isEnabled) Vigil.pendingEventCount() else 0
    }

    /** The README's "Testing your app": an app's test installs the shipped fake. */
    suspend fun withFake(): Boolean {
        val vigil = dev.vigil.testing.FakeVigil.install { riskScore = 0.9; tags = listOf("rooted") }
        Vigil.track("transfer") { "amount" to 2500 }
        val sent = vigil.trackedEvents.single().properties["amount"] == 2500L
        vigil.uninstall()
        return sent
    }

    suspend fun login(): Boolean {
        Vigil.registerDevice("agent-7") { "role" to "teller"; "branch" to "north" }
        Vigil.identify("agent-7") { "branch" to "north" }
        val deviceId: String = Vigil.deviceId
        val active: Boolean = Vigil.device.registration.isActive
        Vigil.deactivateDevice("phone lost")
        println("$deviceId ${Vigil.pendingEvents.size} ${Vigil.lastSyncTime} ${Vigil.droppedEventCount} $active")
        Vigil.sync()
        return when (val r = Vigil.track("transfer") { "amount" to 2500; "currency" to "KES" }) {
            is VigilResult.Success -> r.value.riskScore > 0.7 || "rooted" in r.value.tags || r.value.isOffline
            is VigilResult.Failure -> { println(r.error.message); false }
        }
    }

    suspend fun watchRegistration() {
        val listener = Vigil.device.addRegistrationListener { status -> println(status.userId) }
        Vigil.device.removeRegistrationListener(listener)
        Vigil.device.registrationFlow.collect { status -> println(status.isActive) }
    }

    fun fromJava() {
        Vigil.track("login", mapOf("method" to "pin")) { result -> println(result) }
        Vigil.sync { report -> println(report) }
    }
}
