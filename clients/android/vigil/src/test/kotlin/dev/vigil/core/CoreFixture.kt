package dev.vigil.core

import dev.vigil.core.http.HttpClient
import dev.vigil.core.platform.Clock
import dev.vigil.core.platform.Logger
import dev.vigil.core.platform.MemoryKeyValueStore
import dev.vigil.core.platform.NetworkStatus
import dev.vigil.core.queue.EventQueue
import dev.vigil.core.queue.MemoryEventQueue
import dev.vigil.core.registration.RegistrationWatch
import dev.vigil.core.signals.DeviceSignalsSource
import dev.vigil.core.sync.DeliveryScheduler
import kotlinx.coroutines.Dispatchers
import java.util.concurrent.atomic.AtomicInteger
import kotlin.random.Random

/** A core client with deterministic time, ids and randomness. */
internal class CoreFixture(
    http: HttpClient,
    val network: TestNetwork = TestNetwork(),
    val queue: EventQueue = MemoryEventQueue(),
    signals: DeviceSignalsSource = DeviceSignalsSource.NONE,
    maxBatchSize: Int = 100,
    logger: Logger = Logger.NONE,
    val registrationWatch: RegistrationWatch = RegistrationWatch(),
    registrationRefreshMillis: Long = 0,
    scheduler: DeliveryScheduler = DeliveryScheduler.NONE,
) {
    var now = 1_795_000_000_000L
    private val counter = AtomicInteger()
    val store = MemoryKeyValueStore()
    val client = VigilClient(
        VigilOptions(
            apiKey = "vigil_ck_test",
            endpoint = "http://vigil.test/",
            deviceId = { "vd_test" },
            queue = queue,
            store = store,
            http = http,
            clock = Clock { now },
            network = network,
            ids = { "e${counter.incrementAndGet()}" },
            random = Random(42),
            signals = signals,
            maxBatchSize = maxBatchSize,
            syncPeriodMillis = Long.MAX_VALUE / 4,
            dispatcher = Dispatchers.Unconfined,
            logger = logger,
            registrationWatch = registrationWatch,
            registrationRefreshMillis = registrationRefreshMillis,
            scheduler = scheduler,
        )
    )

    class TestNetwork(var online: Boolean = true) : NetworkStatus {
        override val isOnline: Boolean get() = online
        override fun observe(onAvailable: () -> Unit) = AutoCloseable { }
    }
}
