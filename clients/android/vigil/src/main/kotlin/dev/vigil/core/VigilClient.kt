package dev.vigil.core

import dev.vigil.core.api.Timestamps
import dev.vigil.core.api.VigilApi
import dev.vigil.core.binding.RequestSigner
import dev.vigil.core.json.Json
import dev.vigil.core.model.DeviceRegistration
import dev.vigil.core.model.Parsing
import dev.vigil.core.model.PendingEvent
import dev.vigil.core.model.RegistrationStatus
import dev.vigil.core.model.VigilResponse
import dev.vigil.core.platform.Logger
import dev.vigil.core.registration.RegistrationCache
import dev.vigil.core.result.VigilError
import dev.vigil.core.result.VigilResult
import dev.vigil.core.signals.LocalTags
import dev.vigil.core.sync.Backoff
import dev.vigil.core.sync.DeliveryPolicy
import dev.vigil.core.sync.SyncReport
import dev.vigil.core.sync.Syncer
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineExceptionHandler
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeoutOrNull
import kotlinx.coroutines.delay
import kotlinx.coroutines.isActive
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

/**
 * The runtime-neutral library: queue, sync, registration cache and HTTP. The Android `Vigil` object is a thin
 * shell around one of these. Every public call returns a value; nothing throws into the host app.
 */
internal class VigilClient(private val options: VigilOptions) : AutoCloseable {
    val deviceId: String by lazy { options.deviceId() }

    private val logger = options.logger
    private val store = options.store
    private val queue = options.queue
    private val registrationCache = RegistrationCache(store)
    private val insightsCache = InsightsCache(store)
    /** Null when no signer was given or the key could not be made (logged): requests then go unsigned. */
    private val requestSigner: RequestSigner? by lazy {
        val make = options.deviceSigner ?: return@lazy null
        guard(null) { RequestSigner(make(deviceId), options.clock) }
    }
    private val api = VigilApi(options.endpoint, options.apiKey, options.http, options.clock, signer = { requestSigner })
    private val syncer = Syncer(
        queue = queue,
        api = api,
        clock = options.clock,
        logger = logger,
        backoff = Backoff(random = options.random),
        maxBatchSize = options.maxBatchSize.coerceIn(1, DeliveryPolicy.MAX_BATCH_EVENTS),
        onAccepted = { _, insights -> rememberInsights(insights) },
        onSynced = { store.putString(KEY_LAST_SYNC, it.toString()) },
    )
    private val job = SupervisorJob()
    private val scope = CoroutineScope(
        job + options.dispatcher + CoroutineExceptionHandler { _, e ->
            logger.log(Logger.Level.ERROR, "background work failed", e)
        }
    )
    private var networkHandle: AutoCloseable? = null
    private var retryJob: Job? = null

    /** Starts syncing on reconnect and periodically. */
    fun start() {
        scope.launch { deviceId } // derive the id (MediaDrm, disk) off the caller's thread
        scope.launch { requestSigner } // the device key is made at first start (Keystore key generation is slow)
        networkHandle = guard(null) { options.network.observe { requestSync(refreshRegistration = true) } }
        scope.launch {
            while (isActive) {
                delay(options.syncPeriodMillis)
                runSync(refreshRegistration = false)
            }
        }
        requestSync(refreshRegistration = false)
    }

    /** Sends [name] with [properties]; see [VigilResponse.isOffline] for answers given without the server. */
    suspend fun track(name: String, properties: Map<String, Any?> = emptyMap()): VigilResult<VigilResponse> =
        work {
            if (name.isEmpty() || name.length > 200) {
                return@work VigilResult.Failure(VigilError(VigilError.Kind.REJECTED, "event name must be 1..200 characters"))
            }
            val signals = collectSignals()
            val localTags = LocalTags.from(signals)
            val event = PendingEvent(
                id = options.ids.newId(),
                name = name,
                identity = store.getString(KEY_IDENTITY),
                occurredAtMillis = options.clock.nowMillis(),
                propertiesJson = Json.stringify(composeProperties(properties, signals)),
                attempts = 0,
            )
            val dropped = queue.enqueue(event)
            if (dropped > 0) logger.log(Logger.Level.WARN, "queue full: dropped $dropped oldest event(s)", null)

            if (options.network.isOnline) {
                val report = syncer.sync()
                scheduleRetryIfNeeded(report)
                when (val outcome = syncer.outcomeOf(event.id)) {
                    is Syncer.Outcome.Accepted ->
                        return@work VigilResult.Success(Parsing.response(outcome.insights, deviceId, event.id, localTags))
                    is Syncer.Outcome.Rejected -> return@work VigilResult.Failure(outcome.error)
                    null -> Unit
                }
            }
            VigilResult.Success(
                OfflineAnswer.build(deviceId, event.id, insightsCache.get(), registrationCache.get(), localTags)
            )
        }

    /** Registers this device to [userId]; `metadata["role"]` becomes the registration's role. */
    suspend fun registerDevice(userId: String, metadata: Map<String, Any?> = emptyMap()): VigilResult<DeviceRegistration> =
        work {
            if (userId.isBlank()) return@work VigilResult.Failure(VigilError(VigilError.Kind.REJECTED, "userId must not be blank"))
            if (!options.network.isOnline) return@work noNetwork("registering a device")
            when (val call = api.register(deviceId, userId, metadata)) {
                is VigilApi.Call.Ok -> {
                    val b = call.body
                    val registration = DeviceRegistration(
                        deviceId = Parsing.string(b["device_id"]) ?: deviceId,
                        userId = Parsing.string(b["user_id"]) ?: userId,
                        role = Parsing.string(b["role"]) ?: metadata["role"]?.toString(),
                        registeredAt = Parsing.string(b["registered_at"]) ?: Timestamps.iso8601(options.clock.nowMillis()),
                        metadata = if (b["metadata"] is Map<*, *>) Parsing.map(b["metadata"]) else metadata,
                    )
                    registrationCache.put(
                        RegistrationStatus(
                            isRegistered = true, userId = registration.userId, isActive = true, role = registration.role,
                            status = "active", registeredAt = registration.registeredAt, metadata = registration.metadata,
                            fetchedAtMillis = options.clock.nowMillis(),
                        )
                    )
                    VigilResult.Success(registration)
                }
                is VigilApi.Call.Failed -> VigilResult.Failure(call.problem.toError())
                is VigilApi.Call.Unreachable -> offline("registering a device", call.cause)
            }
        }

    /** The registration as last reported by the server (cached; answers offline). */
    val registration: RegistrationStatus get() = guard(RegistrationStatus.UNKNOWN) { registrationCache.get() }

    /** Asks the server for this device's registration; the server's answer replaces the cache. */
    suspend fun refreshRegistration(): VigilResult<RegistrationStatus> = work {
        if (!options.network.isOnline) return@work noNetwork("refreshing the registration")
        when (val call = api.registration(deviceId)) {
            is VigilApi.Call.Ok -> {
                val status = Parsing.registrationStatus(call.body, options.clock.nowMillis())
                registrationCache.put(status)
                VigilResult.Success(status)
            }
            is VigilApi.Call.Failed -> VigilResult.Failure(call.problem.toError())
            is VigilApi.Call.Unreachable -> offline("refreshing the registration", call.cause)
        }
    }

    suspend fun deactivateDevice(reason: String): VigilResult<RegistrationStatus> = work {
        if (!options.network.isOnline) return@work noNetwork("deactivating the device")
        when (val call = api.deactivate(deviceId, reason)) {
            is VigilApi.Call.Ok -> {
                val status = Parsing.registrationStatus(call.body, options.clock.nowMillis())
                registrationCache.put(status)
                VigilResult.Success(status)
            }
            is VigilApi.Call.Failed -> VigilResult.Failure(call.problem.toError())
            is VigilApi.Call.Unreachable -> offline("deactivating the device", call.cause)
        }
    }

    /** Links later events to [identity]; [metadata] travels with them as `identity_metadata`. */
    fun identify(identity: String?, metadata: Map<String, Any?> = emptyMap()) {
        guard(Unit) {
            store.putString(KEY_IDENTITY, identity?.takeIf { it.isNotEmpty() }?.take(256))
            store.putString(KEY_IDENTITY_METADATA, if (identity == null || metadata.isEmpty()) null else Json.stringify(metadata))
        }
    }

    val pendingEvents: List<PendingEvent> get() = guard(emptyList()) { queue.all() }

    /** Epoch millis of the last sync the server answered, or null if none yet. */
    val lastSyncTimeMillis: Long? get() = guard(null) { store.getString(KEY_LAST_SYNC)?.toLongOrNull() }

    val droppedEventCount: Long get() = guard(0L) { queue.droppedCount() }

    /** Sends everything queued now. */
    suspend fun sync(): VigilResult<SyncReport> = work {
        if (!options.network.isOnline) return@work VigilResult.Failure(VigilError(VigilError.Kind.OFFLINE, "no network"))
        val report = syncer.sync()
        scheduleRetryIfNeeded(report)
        VigilResult.Success(report)
    }

    /** Starts a sync in the background (used on reconnect). */
    fun requestSync(refreshRegistration: Boolean = false) {
        scope.launch { runSync(refreshRegistration) }
    }

    /** Stops background work and waits briefly for a sync in flight, so storage can be closed after. */
    override fun close() {
        guard(Unit) { networkHandle?.close() }
        job.cancel()
        guard(Unit) { runBlocking { withTimeoutOrNull(5_000) { job.join() } } }
    }

    private suspend fun runSync(refreshRegistration: Boolean) {
        if (!options.network.isOnline) return
        val report = syncer.sync()
        scheduleRetryIfNeeded(report)
        // On reconnect the server wins for registration: whatever changed while offline (a supervisor transfer
        // or deactivation) replaces the cache.
        if (refreshRegistration && report.isComplete) refreshRegistration()
    }

    private fun scheduleRetryIfNeeded(report: SyncReport) {
        val wait = report.retryAfterMillis ?: return
        synchronized(this) {
            retryJob?.cancel()
            retryJob = scope.launch {
                delay(wait)
                runSync(refreshRegistration = false)
            }
        }
    }

    private fun composeProperties(custom: Map<String, Any?>, signals: Map<String, Any?>): Map<String, Any?> {
        val p = LinkedHashMap<String, Any?>()
        p.putAll(options.deviceProperties)
        store.getString(KEY_IDENTITY_METADATA)?.let { text ->
            guard(null) { Json.parseObject(text) }?.let { p["identity_metadata"] = it }
        }
        p.putAll(custom)
        p["device_id"] = deviceId
        if (signals.isNotEmpty()) p["device_signals"] = signals
        return p
    }

    private fun collectSignals(): Map<String, Any?> = try {
        options.signals.collect()
    } catch (e: Exception) {
        mapOf("version" to 1, "error" to (e.message ?: e.javaClass.name))
    }

    private fun rememberInsights(insights: Map<String, Any?>) {
        insightsCache.put(insights)
        val device = insights["device"]
        if (device is Map<*, *> && device.isNotEmpty()) {
            registrationCache.put(Parsing.registrationFromDevice(Parsing.deviceInfo(device), options.clock.nowMillis()))
        }
    }

    private fun <T> noNetwork(what: String): VigilResult<T> =
        VigilResult.Failure(VigilError(VigilError.Kind.OFFLINE, "$what needs the server, and the device is offline"))

    private fun <T> offline(what: String, cause: Exception): VigilResult<T> =
        VigilResult.Failure(VigilError(VigilError.Kind.OFFLINE, "$what needs the server, which is unreachable: ${cause.message ?: cause.javaClass.simpleName}"))

    /** Runs [block] off the caller's thread and turns any unexpected exception into a Failure. */
    private suspend fun <T> work(block: suspend () -> VigilResult<T>): VigilResult<T> = try {
        withContext(options.dispatcher) { block() }
    } catch (e: CancellationException) {
        throw e
    } catch (e: Throwable) {
        logger.log(Logger.Level.ERROR, "internal error", e)
        VigilResult.Failure(VigilError(VigilError.Kind.INTERNAL, e.message ?: e.javaClass.name))
    }

    private inline fun <T> guard(fallback: T, block: () -> T): T = try {
        block()
    } catch (e: Exception) {
        logger.log(Logger.Level.ERROR, "internal error", e)
        fallback
    }

    private companion object {
        const val KEY_IDENTITY = "vigil.identity"
        const val KEY_IDENTITY_METADATA = "vigil.identity_metadata"
        const val KEY_LAST_SYNC = "vigil.last_sync_ms"
    }
}
