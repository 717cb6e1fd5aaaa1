package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DetachedJobs;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.slurm.SbatchCommand;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputePolicy;
import io.gantry.server.internal.compute.JobDirectories;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.scheduler.JobFailure;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the backends that submit every job to Slurm share: Slurm keeps a job while the server
 * restarts, its stored "slurm:ID" finds it again, a farm's old launchers are cancelled there before
 * the farm resumes, and worker sessions are refused.
 */
abstract class SlurmJobsBackend implements ComputeBackend {
  private final ComputePolicy policy;
  private final JobDirectories directories;
  private final SlurmLauncher slurm;
  private final JobReferences references;

  /**
   * @param detached job supervisors of this host still followed (jobs started under an earlier
   *     configuration), or null
   */
  SlurmJobsBackend(
      ComputePolicy policy,
      JobDirectories directories,
      SlurmLauncher slurm,
      DetachedJobs detached) {
    this.policy = policy;
    this.directories = directories;
    this.slurm = slurm;
    this.references = new JobReferences(detached, slurm);
  }

  /** Submits {@code spec}; the Slurm job id is stored before anything else happens. */
  final RunningJob submit(ProgramStart job, LaunchSpec spec, SbatchCommand.RunAs runAs)
      throws LaunchException {
    return slurm.submit(
        spec,
        job.batch(),
        runAs,
        slurmId -> job.references().record(JobReferences.SLURM + slurmId));
  }

  @Override
  public final String name() {
    return "slurm";
  }

  @Override
  public final ComputePolicy policy() {
    return policy;
  }

  @Override
  public final JobDirectories directories() {
    return directories;
  }

  @Override
  public final Optional<RunningJob> reattach(String jobId, String reference) throws JobFailure {
    return references.reattach(jobId, reference);
  }

  @Override
  public final void stopFarmLaunchers(String jobId, String reference) throws JobFailure {
    references.stopFarmLaunchers(jobId, reference);
  }

  @Override
  public final Optional<String> sessionRefusal() {
    return Optional.of(Refusals.SESSIONS_OUTSIDE_SLURM);
  }

  @Override
  public final RunningJob startSessionWorkers(
      Path directory, LaunchSpec launchers, JobAccount account) throws LaunchException {
    throw new LaunchException(Refusals.SESSIONS_OUTSIDE_SLURM);
  }

  @Override
  public void forget(String jobId) {
    references.forget(jobId);
  }

  /** Stops following; the jobs run on in Slurm. */
  @Override
  public void close() {
    slurm.close();
  }
}
