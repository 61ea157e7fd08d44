package dev.vigil.core

import dev.vigil.core.binding.DeviceSigner
import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.platform.Clock
import dev.vigil.core.platform.IdGenerator
import dev.vigil.core.platform.KeyValueStore
import dev.vigil.core.platform.Logger
import dev.vigil.core.platform.NetworkStatus
import dev.vigil.core.queue.EventQueue
import dev.vigil.core.registration.RegistrationWatch
import dev.vigil.core.signals.DeviceSignalsSource
import dev.vigil.core.sync.DeliveryPolicy
import dev.vigil.core.sync.DeliveryScheduler
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlin.random.Random

/** Everything the core needs, passed in one place; the Android layer fills in the platform parts. */
internal class VigilOptions(
    val apiKey: String,
    val endpoint: String,
    /** Computed on first use, off the main thread where possible (it may read MediaDrm and disk). */
    val deviceId: () -> String,
    val queue: EventQueue,
    val store: KeyValueStore,
    val http: HttpClient = UrlConnectionHttpClient(),
    val clock: Clock = Clock.SYSTEM,
    val network: NetworkStatus = NetworkStatus.AlwaysOnline,
    val ids: IdGenerator = IdGenerator.RANDOM_UUID,
    val random: Random = Random.Default,
    val signals: DeviceSignalsSource = DeviceSignalsSource.NONE,
    /** Sent with every event, e.g. device_model and os_version. */
    val deviceProperties: Map<String, Any?> = emptyMap(),
    val logger: Logger = Logger.NONE,
    val maxBatchSize: Int = DeliveryPolicy.MAX_BATCH_EVENTS,
    val syncPeriodMillis: Long = 15 * 60_000L,
    /** Where blocking work (SQLite, HTTP) runs; never the main thread. */
    val dispatcher: CoroutineDispatcher = Dispatchers.IO,
    /** Hears registration changes; owned by the caller so listeners outlive one client (Vigil.shutdown/init). */
    val registrationWatch: RegistrationWatch = RegistrationWatch(),
    /** The registration's own refresh schedule, besides every sync; 0 or less turns it off. */
    val registrationRefreshMillis: Long = RegistrationWatch.DEFAULT_REFRESH_MILLIS,
    /** Wakes the app to deliver queued events after this process is gone (JobScheduler on Android). */
    val scheduler: DeliveryScheduler = DeliveryScheduler.NONE,
    /**
     * The device key for this device id (README, "Device binding"), made at first use off the main thread; null:
     * requests go unsigned and the device is never bound.
     */
    val deviceSigner: ((deviceId: String) -> DeviceSigner)? = null,
)
