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
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import java.util.concurrent.atomic.AtomicBoolean

/**
 * The runtime-neutral library: queue, sync, registration cache and HTTP. The Android `Vigil` object is a thin
 * shell around one of these. Every public call returns a value; nothing throws into the host app.
 */
internal class VigilClient(private val options: VigilOptions) : AutoCloseable {
    val deviceId: String by lazy { options.deviceId() }

    private val logger = options.logger
    private val store = options.store
    private val queue = options.queue
    private val registrationCache = RegistrationCache(store, options.registrationWatch, logger)
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
    private val registrationFetch = Mutex()
    /** A drain is launched and has not started yet: more requests ride on it (2,000 tracks, not 2,000 drains). */
    private val drainPending = AtomicBoolean(false)
    /** Orders the background job's scheduling and its cancelling against each other (see scheduleDelivery). */
    private val schedulingLock = Any()
    /** The opt-out switch, read from the store once (off the caller's thread) and then kept here. */
    @Volatile
    private var enabledFlag: Boolean? = null

    /** Starts syncing on reconnect and periodically. */
    fun start() {
        scope.launch { deviceId } // derive the id (MediaDrm, disk) off the caller's thread
        scope.launch { registrationCache.seedWatch() }
        scope.launch { refreshRegistrationOnSchedule() }
        scope.launch { requestSigner } // the device key is made at first start (Keystore key generation is slow)
        networkHandle = guard(null) { options.network.observe { requestSync(refreshRegistration = true) } }
        scope.launch {
            while (isActive) {
                delay(options.syncPeriodMillis)
                runSync(refreshRegistration = true)
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
            if (!isEnabled) return@work disabled()
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
            // Claimed before it is queued: a drain running now skips it, so it goes on its own request, first.
            syncer.claim(event.id)
            val dropped = try {
                queue.enqueue(event)
            } catch (e: Exception) {
                syncer.release(event.id)
                throw e
            }
            if (dropped > 0) logger.log(Logger.Level.WARN, "queue full: dropped $dropped oldest event(s)", null)

            if (!options.network.isOnline) {
                syncer.release(event.id)
                scheduleJob()
            } else {
                val outcome = syncer.sendLive(event)
                requestSync() // the backlog, in the background: never in this call's time
                when (outcome) {
                    is Syncer.Outcome.Accepted ->
                        return@work VigilResult.Success(Parsing.response(outcome.insights, deviceId, event.id, localTags))
                    is Syncer.Outcome.Rejected -> return@work VigilResult.Failure(outcome.error)
                    null -> scheduleJob()
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
            if (!isEnabled) return@work disabled()
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
        if (!isEnabled) return@work disabled()
        if (!options.network.isOnline) return@work noNetwork("refreshing the registration")
        // One fetch at a time (sync, schedule, app): an older answer arriving last would undo a newer one.
        registrationFetch.withLock {
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
    }

    suspend fun deactivateDevice(reason: String): VigilResult<RegistrationStatus> = work {
        if (!isEnabled) return@work disabled()
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

    /** How many events wait, counted by the queue (SQL `COUNT(*)`), off the caller's thread. */
    suspend fun pendingEventCount(): Int = try {
        withContext(options.dispatcher) { queue.size() }
    } catch (e: CancellationException) {
        throw e
    } catch (e: Exception) {
        logger.log(Logger.Level.ERROR, "internal error", e)
        0
    }

    /**
     * Forgets the user (a sign-out): the identity and its metadata, and the insights cached for offline answers.
     * Kept: the device id, the device's registration (a supervisor's business), the opt-out switch, and queued
     * events, which were tracked for the previous user and are still delivered with that identity.
     */
    fun reset() {
        guard(Unit) {
            store.putString(KEY_IDENTITY, null)
            store.putString(KEY_IDENTITY_METADATA, null)
            insightsCache.clear()
        }
    }

    /**
     * The opt-out switch, persisted. Off: `track` collects nothing (no device signals, nothing queued) and answers
     * [VigilError.Kind.DISABLED]; nothing is sent (registry calls included, syncs are skipped); the queue is
     * cleared and the background job cancelled. A request already in flight may still complete. On again: tracking
     * resumes; what was cleared is gone.
     */
    fun setEnabled(enabled: Boolean) {
        enabledFlag = enabled
        scope.launch {
            // Re-read: a later call may have flipped it again; every launched block converges on the last value.
            val now = enabledFlag ?: return@launch
            store.putString(KEY_DISABLED, if (now) null else "1")
            if (!now) {
                queue.clear()
                options.scheduler.cancel()
            }
        }
    }

    /** Reads the persisted switch once; call off the main thread the first time (it reads settings). */
    val isEnabled: Boolean
        get() = enabledFlag ?: guard(true) { store.getString(KEY_DISABLED) == null }.also { enabledFlag = it }

    /** Epoch millis of the last sync the server answered, or null if none yet. */
    val lastSyncTimeMillis: Long? get() = guard(null) { store.getString(KEY_LAST_SYNC)?.toLongOrNull() }

    val droppedEventCount: Long get() = guard(0L) { queue.droppedCount() }

    /** Sends everything queued now, then refreshes the registration (a transfer or deactivation made meanwhile). */
    suspend fun sync(): VigilResult<SyncReport> = work {
        if (!isEnabled) return@work disabled()
        if (!options.network.isOnline) return@work VigilResult.Failure(VigilError(VigilError.Kind.OFFLINE, "no network"))
        val report = syncer.sync()
        scheduleRetryIfNeeded(report)
        if (report.isComplete) refreshRegistrationQuietly()
        // Never cancels here: the background job itself runs this, and cancelling would stop it mid-run.
        if (report.remaining > 0) guard(Unit) { scheduleJob() }
        VigilResult.Success(report)
    }

    /** Starts a sync in the background (the backlog after a live event, on reconnect). Coalesces requests. */
    fun requestSync(refreshRegistration: Boolean = false) {
        if (refreshRegistration) {
            scope.launch { runSync(refreshRegistration = true) }
            return
        }
        if (!drainPending.compareAndSet(false, true)) return
        scope.launch {
            drainPending.set(false)
            runSync(refreshRegistration = false)
        }
    }

    /** Stops background work and waits briefly for a sync in flight, so storage can be closed after. */
    override fun close() {
        guard(Unit) { networkHandle?.close() }
        job.cancel()
        guard(Unit) { runBlocking { withTimeoutOrNull(5_000) { job.join() } } }
    }

    private suspend fun runSync(refreshRegistration: Boolean) {
        if (!options.network.isOnline || !isEnabled) return
        val report = syncer.sync()
        scheduleRetryIfNeeded(report)
        scheduleDelivery(report)
        // On reconnect the server wins for registration: whatever changed while offline (a supervisor transfer
        // or deactivation) replaces the cache.
        if (refreshRegistration && report.isComplete) refreshRegistrationQuietly()
    }

    /** A refresh nobody waits for: a failure is logged (not while offline: that is expected) and the cache kept. */
    private suspend fun refreshRegistrationQuietly() {
        val result = refreshRegistration()
        if (result is VigilResult.Failure && result.error.kind != VigilError.Kind.OFFLINE) {
            logger.log(Logger.Level.WARN, "registration refresh failed: ${result.error.message}", null)
        }
    }

    /** The registration's own schedule, so a transfer or deactivation reaches a device with nothing to send. */
    private suspend fun refreshRegistrationOnSchedule() {
        val every = options.registrationRefreshMillis
        if (every <= 0) return
        while (true) {
            delay(every)
            if (options.network.isOnline && isEnabled) refreshRegistrationQuietly()
        }
    }

    /**
     * Left over: wake the app for it even if this process dies. Nothing left: no job. The report counts the queue as
     * the drain left it, so an empty report is checked against the queue under the lock every scheduling takes: an
     * event queued offline since either is seen here or schedules its job after this cancel, instead of waiting for
     * the next start of the app.
     */
    private fun scheduleDelivery(report: SyncReport) = guard(Unit) {
        synchronized(schedulingLock) {
            if (report.remaining > 0 || queue.size() > 0) options.scheduler.schedule() else options.scheduler.cancel()
        }
    }

    private fun scheduleJob() = synchronized(schedulingLock) { options.scheduler.schedule() }

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

    private fun <T> disabled(): VigilResult<T> =
        VigilResult.Failure(VigilError(VigilError.Kind.DISABLED, "Vigil is switched off (setEnabled(false)): nothing is collected or sent"))

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
        const val KEY_DISABLED = "vigil.disabled"
    }
}
