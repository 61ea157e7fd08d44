package dev.vigil.android

import android.app.job.JobParameters
import android.app.job.JobService
import dev.vigil.Vigil
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.cancelChildren
import kotlinx.coroutines.launch

/**
 * The background delivery job (declared in the AAR's manifest, bound only by the system: BIND_JOB_SERVICE).
 * The app's `Application.onCreate` has run `Vigil.init` before the system starts it, so it sends the queue with
 * that configuration; it asks to be rescheduled (with JobScheduler's backoff) while events are left and the
 * server could not take them.
 */
internal class VigilSyncJobService : JobService() {
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.IO)

    override fun onStartJob(params: JobParameters?): Boolean {
        scope.launch {
            jobFinished(params, Vigil.deliverInBackground())
        }
        return true
    }

    override fun onStopJob(params: JobParameters?): Boolean {
        scope.coroutineContext.cancelChildren()
        return true
    }

    override fun onDestroy() {
        scope.cancel()
        super.onDestroy()
    }
}
