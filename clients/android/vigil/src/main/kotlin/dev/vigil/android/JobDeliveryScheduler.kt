package dev.vigil.android

import android.app.job.JobInfo
import android.app.job.JobScheduler
import android.content.ComponentName
import android.content.Context
import dev.vigil.core.platform.Logger
import dev.vigil.core.sync.DeliveryScheduler
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Queued events are delivered by a JobScheduler job ([VigilSyncJobService]) that runs once any network is
 * connected, so they go even if the app's process is gone by then. Not persisted across reboots (that would need
 * RECEIVE_BOOT_COMPLETED): after a reboot the next app start sends them.
 */
internal class JobDeliveryScheduler(
    context: Context,
    private val jobId: Int,
    private val logger: Logger,
) : DeliveryScheduler {
    private val app = context.applicationContext ?: context

    /** Whether this process believes the job is pending; the job clears it when it finishes for good. */
    private val scheduled = AtomicBoolean(false)

    override fun schedule() {
        // One binder call per need, not per event: 2,000 offline tracks schedule the job once.
        if (!scheduled.compareAndSet(false, true)) return
        try {
            val job = JobInfo.Builder(jobId, ComponentName(app, VigilSyncJobService::class.java))
                .setRequiredNetworkType(JobInfo.NETWORK_TYPE_ANY)
                .setBackoffCriteria(BACKOFF_MILLIS, JobInfo.BACKOFF_POLICY_EXPONENTIAL)
                .build()
            if (jobs()?.schedule(job) != JobScheduler.RESULT_SUCCESS) {
                scheduled.set(false)
                logger.log(Logger.Level.WARN, "could not schedule background delivery (JobScheduler refused job $jobId)", null)
            }
        } catch (e: RuntimeException) {
            // e.g. the service is missing from the merged manifest: the in-process sync still delivers.
            scheduled.set(false)
            logger.log(Logger.Level.WARN, "could not schedule background delivery", e)
        }
    }

    override fun cancel() {
        if (!scheduled.getAndSet(false)) return
        try {
            jobs()?.cancel(jobId)
        } catch (e: RuntimeException) {
            logger.log(Logger.Level.WARN, "could not cancel background delivery", e)
        }
    }

    /** The job ran; unless it asked to run again, the next need schedules it anew. */
    fun finished(rescheduled: Boolean) {
        if (!rescheduled) scheduled.set(false)
    }

    private fun jobs(): JobScheduler? = app.getSystemService(Context.JOB_SCHEDULER_SERVICE) as JobScheduler?

    companion object {
        /** The default job id; apps that use JobScheduler themselves can change it (`VigilConfig.backgroundJobId`). */
        const val DEFAULT_JOB_ID = 0x56494731 // "VIG1"
        private const val BACKOFF_MILLIS = 30_000L
    }
}
