package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DetachedJobs;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.internal.scheduler.JobFailure;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The references every backend stores for a started job, and how each is followed again: a job
 * supervisor's ({@link DetachedJobs#REFERENCE_PREFIX}), or "slurm:ID". A backend that cannot follow
 * a reference says why (the job was started under another configuration) rather than losing the job
 * silently.
 */
final class JobReferences {
  /** Prefix of a stored Slurm job id. */
  static final String SLURM = "slurm:";

  private static final Logger LOG = LoggerFactory.getLogger(JobReferences.class);

  private final DetachedJobs detached;
  private final SlurmLauncher slurm;

  /**
   * @param detached the job supervisors this server follows, or null
   * @param slurm the Slurm jobs go to, or null
   */
  JobReferences(DetachedJobs detached, SlurmLauncher slurm) {
    this.detached = detached;
    this.slurm = slurm;
  }

  Optional<RunningJob> reattach(String jobId, String reference) throws JobFailure {
    if (reference.startsWith(DetachedJobs.REFERENCE_PREFIX)) {
      if (detached == null) {
        throw new JobFailure(
            "the job runs under a job supervisor ("
                + reference
                + ") and this server has no jobs.supervisor");
      }
      return Optional.of(detached.reattach(jobId, reference));
    }
    if (!reference.startsWith(SLURM)) {
      return Optional.empty();
    }
    if (slurm == null) {
      throw new JobFailure(
          "the job runs in Slurm ("
              + reference
              + ") and this server's compute backend is not slurm");
    }
    return Optional.of(slurm.reattach(jobId, reference.substring(SLURM.length())));
  }

  /** A job supervisor's start record of the job, for a job whose reference was not stored. */
  Optional<String> startedReference(String jobId) {
    return detached == null ? Optional.empty() : detached.startedReference(jobId);
  }

  /**
   * Stops the Slurm job a farm's launchers ran in before a restart (it may still run); nothing for
   * a reference of launchers that ended with the previous server.
   */
  void stopFarmLaunchers(String jobId, String reference) throws JobFailure {
    if (!reference.startsWith(SLURM) || slurm == null) {
      return;
    }
    RunningJob old = slurm.reattach(jobId, reference.substring(SLURM.length()));
    old.terminate(Duration.ofSeconds(5));
    try {
      old.onExit().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JobFailure("interrupted while stopping the farm's old launchers", e);
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("job {}: the farm's old Slurm job did not end: {}", jobId, e.toString());
    }
  }

  void forget(String jobId) {
    if (detached != null) {
      detached.forget(jobId); // its end is in the job store now
    }
  }
}
