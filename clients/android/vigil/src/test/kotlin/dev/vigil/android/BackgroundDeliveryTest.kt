package dev.vigil.android

import android.app.job.JobInfo
import android.app.job.JobScheduler
import android.content.Context
import dev.vigil.Vigil
import dev.vigil.core.http.HttpClient
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.testing.DeviceNetwork
import dev.vigil.testing.LocalServer
import dev.vigil.testing.eventually
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.shadow.api.Shadow
import org.robolectric.shadows.ShadowJobService
import java.io.IOException

/** Queued events are delivered by a JobScheduler job once a network is connected, even if the process died. */
@RunWith(RobolectricTestRunner::class)
class BackgroundDeliveryTest {
    private val server = LocalServer()
    private val app = RuntimeEnvironment.getApplication()
    private val jobs get() = app.getSystemService(Context.JOB_SCHEDULER_SERVICE) as JobScheduler

    @Volatile
    private var serverReachable = true
    private val real = UrlConnectionHttpClient()

    @Before
    fun setUp() {
        DeviceNetwork.connect()
        Vigil.init(app) {
            apiKey = "vigil_ck_test"
            endpoint = server.url
            syncIntervalMillis = 3_600_000
            httpClient = HttpClient { request ->
                if (!serverReachable) throw IOException("the server is unreachable (simulated)")
                real.execute(request)
            }
        }
    }

    @After
    fun tearDown() {
        Vigil.shutdown()
        server.close()
    }

    private fun runJob(): ShadowJobService {
        val service = Robolectric.setupService(VigilSyncJobService::class.java)
        assertTrue("the job runs asynchronously", service.onStartJob(null))
        val shadow = Shadow.extract<ShadowJobService>(service)
        eventually(what = "the job finished") { shadow.isJobFinished }
        return shadow
    }

    @Test
    fun `an event queued offline schedules a job for the library's service that waits for a network`() {
        DeviceNetwork.goOffline()
        runBlocking { Vigil.track("login") }

        val job = jobs.allPendingJobs.single()
        assertEquals(VigilSyncJobService::class.java.name, job.service.className)
        @Suppress("DEPRECATION")
        assertEquals(JobInfo.NETWORK_TYPE_ANY, job.networkType)
    }

    @Test
    fun `running the job delivers the queue and finishes without asking to run again`() {
        serverReachable = false
        runBlocking { repeat(3) { Vigil.track("transfer") } }
        assertEquals(3, runBlocking { Vigil.pendingEventCount() })
        assertEquals(1, jobs.allPendingJobs.size)
        serverReachable = true

        val job = runJob()

        assertFalse(job.isRescheduleNeeded)
        assertEquals(0, runBlocking { Vigil.pendingEventCount() })
        assertEquals(3, server.answeredIds.toSet().size)
    }

    @Test
    fun `a job that cannot reach the server asks to run again and keeps the events`() {
        serverReachable = false
        runBlocking { Vigil.track("transfer") }

        val job = runJob()

        assertTrue(job.isRescheduleNeeded)
        assertEquals(1, runBlocking { Vigil.pendingEventCount() })
    }
}
