package dev.vigil

import android.content.Context
import android.os.Build
import dev.vigil.android.ConnectivityNetworkStatus
import dev.vigil.android.DeviceIdProvider
import dev.vigil.android.JobDeliveryScheduler
import dev.vigil.android.SharedPreferencesStore
import dev.vigil.android.SqliteEventQueue
import dev.vigil.android.deviceSigner
import dev.vigil.android.signals.AndroidDeviceSignals
import dev.vigil.core.PropertiesBuilder
import dev.vigil.core.VigilClient
import dev.vigil.core.VigilOptions
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.model.DeviceRegistration
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.model.VigilResponse
import dev.vigil.core.platform.Logger
import dev.vigil.core.registration.RegistrationListener
import dev.vigil.core.registration.RegistrationWatch
import dev.vigil.core.result.VigilCallback
import dev.vigil.core.result.VigilError
import dev.vigil.core.result.VigilResult
import dev.vigil.core.sync.SyncReport
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.launch

/**
 * The Vigil Android library. Call [init] once from `Application.onCreate`; everything else is safe from any
 * thread, does its work off the main thread and answers with a [VigilResult] instead of throwing.
 */
object Vigil {
    private class Instance(val client: VigilClient, val queue: AutoCloseable, val scheduler: JobDeliveryScheduler? = null)

    @Volatile
    private var instance: Instance? = null
    private var logger: Logger = AndroidLogger
    private val callbackScope = CoroutineScope(SupervisorJob() + Dispatchers.IO)
    // Outlives one configuration, so listeners and collectors stay attached across shutdown() and init().
    private val registrationWatch = RegistrationWatch()

    /** Configures the library. Only the first call takes effect (until [shutdown]). */
    @JvmStatic
    fun init(context: Context, configure: VigilConfig.() -> Unit) {
        synchronized(this) {
            if (instance != null) {
                logger.log(Logger.Level.WARN, "Vigil.init called twice; keeping the first configuration", null)
                return
            }
            try {
                val config = VigilConfig().apply(configure)
                logger = config.logger
                if (config.apiKey.isBlank() || !(config.endpoint.startsWith("http://") || config.endpoint.startsWith("https://"))) {
                    logger.log(Logger.Level.ERROR, "Vigil.init needs an apiKey and an http(s) endpoint", null)
                    return
                }
                if (config.apiKey.startsWith("vigil_wk_")) {
                    logger.log(Logger.Level.WARN, "a write key is embedded in the app; use a client key (vigil_ck_…)", null)
                }
                val app = context.applicationContext ?: context
                val store = SharedPreferencesStore(app)
                val queue = SqliteEventQueue(app, config.maxQueueSize)
                val scheduler = JobDeliveryScheduler(app, config.backgroundJobId, config.logger)
                val client = VigilClient(
                    VigilOptions(
                        apiKey = config.apiKey,
                        endpoint = config.endpoint,
                        deviceId = { DeviceIdProvider(app, store).get().id },
                        queue = queue,
                        store = store,
                        http = config.httpClient ?: UrlConnectionHttpClient(config.connectTimeoutMillis, config.readTimeoutMillis),
                        network = ConnectivityNetworkStatus(app),
                        signals = AndroidDeviceSignals(),
                        deviceProperties = mapOf("device_model" to Build.MODEL, "os_version" to Build.VERSION.RELEASE),
                        logger = config.logger,
                        syncPeriodMillis = config.syncIntervalMillis,
                        registrationWatch = registrationWatch,
                        registrationRefreshMillis = config.registrationRefreshIntervalMillis,
                        scheduler = scheduler,
                        deviceSigner = { id -> deviceSigner(id, store, config.logger) },
                    )
                )
                instance = Instance(client, queue, scheduler)
                client.start()
            } catch (e: Exception) {
                logger.log(Logger.Level.ERROR, "Vigil.init failed", e)
            }
        }
    }

    /** True once [init] succeeded. */
    @JvmStatic
    val isInitialized: Boolean get() = instance != null

    /** The persistent device id (see README: "Device id"); empty before [init]. */
    @JvmStatic
    val deviceId: String get() = instance?.client?.deviceId ?: ""

    /** This device's registration. */
    @JvmStatic
    val device: Device = Device

    object Device {
        /** As last reported by the server; served from the local cache when offline. */
        val registration: RegistrationStatus get() = instance?.client?.registration ?: RegistrationStatus.UNKNOWN

        /** Asks the server; its answer replaces the cache (the server wins). */
        suspend fun refreshRegistration(): VigilResult<RegistrationStatus> =
            withClient { it.refreshRegistration() }

        fun refreshRegistration(callback: VigilCallback<RegistrationStatus>) =
            deliver(callback) { refreshRegistration() }

        /**
         * The registration, emitting when it changes: a transfer to another user, a deactivation, a reactivation,
         * a new role, whichever server answer brought it (a sync, the registration schedule, an event's answer).
         * Starts from the cached registration once [init] ran; a refresh that finds nothing new emits nothing.
         */
        val registrationFlow: StateFlow<RegistrationStatus> get() = registrationWatch.flow

        /**
         * Calls [listener] (on a background thread) when the registration changes, as [registrationFlow] emits.
         * Returns it, for [removeRegistrationListener]. An exception it throws is reported through the logger.
         */
        fun addRegistrationListener(listener: RegistrationListener): RegistrationListener =
            listener.also { registrationWatch.add(it) }

        fun removeRegistrationListener(listener: RegistrationListener) = registrationWatch.remove(listener)
    }

    /** Registers this device to [userId], e.g. `registerDevice("agent-7") { "role" to "teller"; "branch" to "north" }`. */
    suspend fun registerDevice(userId: String, metadata: PropertiesBuilder.() -> Unit = {}): VigilResult<DeviceRegistration> =
        withClient { it.registerDevice(userId, PropertiesBuilder.build(metadata)) }

    @JvmStatic
    fun registerDevice(userId: String, metadata: Map<String, Any?>, callback: VigilCallback<DeviceRegistration>) =
        deliver(callback) { withClient { it.registerDevice(userId, metadata) } }

    /** Links later events to [identity]; [metadata] travels with them. */
    fun identify(identity: String, metadata: PropertiesBuilder.() -> Unit = {}) {
        instance?.client?.identify(identity, PropertiesBuilder.build(metadata)) ?: notInitialized<Unit>("identify")
    }

    @JvmStatic
    fun identify(identity: String, metadata: Map<String, Any?>) {
        instance?.client?.identify(identity, metadata) ?: notInitialized<Unit>("identify")
    }

    /** Queues and sends an event. Offline, answers at once from cached data and local checks. */
    suspend fun track(name: String, properties: PropertiesBuilder.() -> Unit = {}): VigilResult<VigilResponse> =
        withClient { it.track(name, PropertiesBuilder.build(properties)) }

    @JvmStatic
    fun track(name: String, properties: Map<String, Any?>, callback: VigilCallback<VigilResponse>) =
        deliver(callback) { withClient { it.track(name, properties) } }

    suspend fun deactivateDevice(reason: String): VigilResult<RegistrationStatus> =
        withClient { it.deactivateDevice(reason) }

    @JvmStatic
    fun deactivateDevice(reason: String, callback: VigilCallback<RegistrationStatus>) =
        deliver(callback) { deactivateDevice(reason) }

    /**
     * Events stored on the device and not yet acknowledged by the server, oldest first. Loads the whole queue on
     * the calling thread: for a number, use [pendingEventCount].
     */
    @JvmStatic
    val pendingEvents: List<PendingEvent> get() = instance?.client?.pendingEvents ?: emptyList()

    /** How many events wait on the device: a SQL count off the calling thread; 0 before [init]. */
    suspend fun pendingEventCount(): Int = instance?.client?.pendingEventCount() ?: 0

    @JvmStatic
    fun pendingEventCount(callback: VigilCallback<Int>) = deliver(callback) { VigilResult.Success(pendingEventCount()) }

    /**
     * Forgets the signed-in user: identity, identity metadata and the insights cached for offline answers. Keeps the
     * device id, its registration, the opt-out switch and queued events (delivered with the identity they were
     * tracked with). Call on sign-out.
     */
    @JvmStatic
    fun reset() {
        instance?.client?.reset() ?: notInitialized<Unit>("reset")
    }

    /**
     * The opt-out switch, persisted across restarts. `false`: nothing is collected (`track` answers
     * [VigilError.Kind.DISABLED] without reading device signals or queueing), nothing is sent (registry calls
     * answer DISABLED too, syncs and the background job are skipped) and the queue is cleared. `true` resumes.
     */
    @JvmStatic
    fun setEnabled(enabled: Boolean) {
        instance?.client?.setEnabled(enabled) ?: notInitialized<Unit>("setEnabled")
    }

    /** The opt-out switch; the first read after [init] reads the app's settings. */
    @JvmStatic
    val isEnabled: Boolean get() = instance?.client?.isEnabled ?: false

    /** Epoch millis of the last sync the server answered; null if none yet. */
    @JvmStatic
    val lastSyncTime: Long? get() = instance?.client?.lastSyncTimeMillis

    /** Events dropped because the queue was full. */
    @JvmStatic
    val droppedEventCount: Long get() = instance?.client?.droppedEventCount ?: 0L

    /** Sends every queued event now. */
    suspend fun sync(): VigilResult<SyncReport> = withClient { it.sync() }

    @JvmStatic
    fun sync(callback: VigilCallback<SyncReport>) = deliver(callback) { sync() }

    /**
     * Stops syncing and closes the database. Queued events stay on disk and are sent after the next [init]
     * (useful in tests, and for apps that tear down their process explicitly).
     */
    @JvmStatic
    fun shutdown() {
        synchronized(this) {
            val current = instance ?: return
            instance = null
            try {
                current.client.close()
                current.queue.close()
            } catch (e: Exception) {
                logger.log(Logger.Level.WARN, "Vigil.shutdown: ${e.message}", e)
            }
        }
    }

    /**
     * The background job's work ([dev.vigil.android.VigilSyncJobService]): sends the queue; true asks JobScheduler
     * to run it again later (the server could not be reached or asked to retry).
     */
    internal suspend fun deliverInBackground(): Boolean {
        val current = instance ?: return false
        val reschedule = when (val result = current.client.sync()) {
            is VigilResult.Success -> !result.value.isComplete
            is VigilResult.Failure -> result.error.kind == VigilError.Kind.OFFLINE || result.error.kind == VigilError.Kind.UNAVAILABLE
        }
        current.scheduler?.finished(reschedule)
        return reschedule
    }

    /** Makes [client] the one behind every call, without Android (the test fake, `dev.vigil.testing.FakeVigil`). */
    internal fun install(client: VigilClient, closeable: AutoCloseable, log: Logger) {
        synchronized(this) {
            shutdown()
            logger = log
            instance = Instance(client, closeable)
            client.start()
        }
    }

    private suspend fun <T> withClient(block: suspend (VigilClient) -> VigilResult<T>): VigilResult<T> {
        val client = instance?.client ?: return notInitialized("this call")
        return block(client)
    }

    private fun <T> notInitialized(what: String): VigilResult<T> {
        logger.log(Logger.Level.ERROR, "Vigil.init has not run (or failed) before $what", null)
        return VigilResult.Failure(VigilError(VigilError.Kind.NOT_INITIALIZED, "Vigil.init has not run (or failed)"))
    }

    private fun <T> deliver(callback: VigilCallback<T>, block: suspend () -> VigilResult<T>) {
        callbackScope.launch {
            val result = try {
                block()
            } catch (e: Exception) {
                VigilResult.Failure(VigilError(VigilError.Kind.INTERNAL, e.message ?: e.javaClass.name))
            }
            try {
                callback.onResult(result)
            } catch (e: Exception) {
                logger.log(Logger.Level.ERROR, "a Vigil callback threw", e)
            }
        }
    }
}
