package dev.vigil

import dev.vigil.android.JobDeliveryScheduler
import dev.vigil.core.http.HttpClient
import dev.vigil.core.platform.Logger
import dev.vigil.core.registration.RegistrationWatch
import dev.vigil.core.sync.DeliveryPolicy

/** The `Vigil.init(context) { … }` block. */
class VigilConfig {
    /** A client key (`vigil_ck_…`). Never a write key: it ships inside the app. */
    var apiKey: String = ""

    /** The Vigil server's address, e.g. `https://vigil.example.com`. */
    var endpoint: String = ""

    /** At most this many unsent events are kept; beyond it the oldest are dropped and counted. */
    var maxQueueSize: Int = DeliveryPolicy.QUEUE_BOUND

    /** How often queued events are retried besides on reconnect. */
    var syncIntervalMillis: Long = 15 * 60_000L

    /** Receives problems the library absorbed instead of throwing. */
    var logger: Logger = AndroidLogger

    /** Replaces the HTTP client (proxies, certificate pinning, tests). Defaults to HttpURLConnection. */
    var httpClient: HttpClient? = null

    /**
     * How often this device's registration is fetched from the server on its own schedule (5 minutes), besides
     * after every sync; a transfer or deactivation then reaches an idle app too. 0 or less: only on sync.
     */
    var registrationRefreshIntervalMillis: Long = RegistrationWatch.DEFAULT_REFRESH_MILLIS

    /**
     * How long the default HTTP client waits to connect, and then for an answer (10 s and 15 s). A server that
     * accepts and never answers holds a `track` no longer than these; the event stays queued. Ignored with your
     * own [httpClient] (its timeouts apply).
     */
    var connectTimeoutMillis: Int = DeliveryPolicy.CONNECT_TIMEOUT_MILLIS
    var readTimeoutMillis: Int = DeliveryPolicy.READ_TIMEOUT_MILLIS

    /** The JobScheduler job id of background delivery; change it if the app uses this id for its own jobs. */
    var backgroundJobId: Int = JobDeliveryScheduler.DEFAULT_JOB_ID
}
