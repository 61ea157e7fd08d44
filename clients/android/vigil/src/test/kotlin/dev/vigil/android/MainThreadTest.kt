package dev.vigil.android

import android.os.Looper
import android.os.StrictMode
import dev.vigil.Vigil
import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.platform.Logger
import dev.vigil.core.result.VigilResult
import dev.vigil.testing.DeviceNetwork
import dev.vigil.testing.LocalServer
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import java.util.concurrent.atomic.AtomicInteger

/**
 * Nothing heavy on the main thread: an app calls `Vigil` from its main thread with StrictMode catching disk and
 * network access there (penaltyDeath: a violation throws on the main thread and fails the test).
 */
@RunWith(RobolectricTestRunner::class)
class MainThreadTest {
    private val server = LocalServer()
    private val requestsOnMain = AtomicInteger()
    private val real = UrlConnectionHttpClient()
    private val logs = StringBuilder()

    @Before
    fun setUp() {
        DeviceNetwork.connect()
    }

    @After
    fun tearDown() {
        StrictMode.setThreadPolicy(StrictMode.ThreadPolicy.LAX)
        Vigil.shutdown()
        server.close()
    }

    private fun strict() = StrictMode.setThreadPolicy(
        StrictMode.ThreadPolicy.Builder().detectDiskReads().detectDiskWrites().detectNetwork().penaltyDeath().build()
    )

    @Test
    fun `init, track and pendingEventCount on the main thread leave disk and network to other threads`() {
        assertTrue("Robolectric runs the test on the main thread", Looper.getMainLooper().thread == Thread.currentThread())
        strict()

        Vigil.init(RuntimeEnvironment.getApplication()) {
            apiKey = "vigil_ck_test"
            endpoint = server.url
            syncIntervalMillis = 3_600_000
            logger = Logger { level, message, error -> synchronized(logs) { logs.append("$level $message ${error?.stackTraceToString() ?: ""}\n") } }
            httpClient = HttpClient { request ->
                if (Looper.getMainLooper().thread == Thread.currentThread()) requestsOnMain.incrementAndGet()
                real.execute(request)
            }
        }
        assertTrue("Vigil.init failed:\n$logs", Vigil.isInitialized)
        val response = runBlocking { Vigil.track("login") { "amount" to 1 } }
        val count = runBlocking { Vigil.pendingEventCount() }

        assertTrue("$response", response is VigilResult.Success && !response.value.isOffline)
        assertEquals(0, count)
        assertEquals("requests sent from the main thread", 0, requestsOnMain.get())
    }

    @Test
    fun `the check itself works, reading the queue on the main thread is a violation`() {
        val queue = SqliteEventQueue(RuntimeEnvironment.getApplication(), databaseName = "strict-control.db")
        strict()
        val violation = runCatching { queue.size() }.exceptionOrNull()
        StrictMode.setThreadPolicy(StrictMode.ThreadPolicy.LAX)
        queue.close()
        assertTrue("expected a StrictMode violation, got $violation", violation != null)
    }
}
