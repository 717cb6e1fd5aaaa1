package io.gantry.server.compute.internal;

import io.gantry.dispatcher.DetachedJobs;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.slurm.SlurmConfig;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.compute.BackendContext;
import io.gantry.server.compute.ComputeBackend;
import io.gantry.server.compute.ComputePolicy;
import io.gantry.server.compute.JobDirectories;
import io.gantry.server.compute.ProgramStart;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.scheduler.JobFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code compute.backend=slurm} with job directories on this host (shared with the nodes): every
 * job, MPI or not, is submitted to Slurm by its client commands ({@code slurm.bin-dir}), as its
 * owner's OS account (root's {@code sbatch --uid}); Slurm keeps it while the server restarts, and
 * the stored "slurm:ID" finds it again. Task farms' launchers are a Slurm job too; worker sessions
 * are refused.
 */
public final class SlurmBackend implements ComputeBackend {
  private final ComputePolicy policy;
  private final JobDirectories directories;
  private final SlurmLauncher slurm;
  private final DetachedJobs detached;
  private final JobReferences references;

  private SlurmBackend(ServerConfig config, SlurmLauncher slurm, DetachedJobs detached) {
    ServerConfig.Compute c = config.compute();
    this.policy =
        new ComputePolicy(
            "slurm",
            false,
            false,
            true,
            false,
            c.slurmPartition(),
            c.slurmAccount(),
            c.slurmUsers());
    this.directories = new HostDirectories(config.stagingRoot());
    this.slurm = slurm;
    this.detached = detached;
    this.references = new JobReferences(detached, slurm);
  }

  /**
   * The registration's constructor: Slurm's client commands from {@code slurm.bin-dir}, the batch
   * script under the data directory. Jobs a job supervisor started under an earlier configuration
   * ({@code jobs.supervisor}) are still followed.
   */
  public static ComputeBackend create(BackendContext context) throws IOException {
    ServerConfig config = context.config();
    StartupChecks.hostFileUnused(config, "slurm");
    ServerConfig.Compute c = config.compute();
    SlurmLauncher slurm =
        new SlurmLauncher(
            new SlurmConfig(
                c.slurmBinDirectory(),
                c.slurmConf(),
                c.slurmPollInterval(),
                c.slurmMpirun(),
                config.dataDirectory().resolve("slurm"),
                c.slurmCommandTimeout(),
                SlurmConfig.DEFAULT_INHERITED_ENVIRONMENT));
    return new SlurmBackend(
        config,
        slurm,
        StartupChecks.supervision(config, false).map(DetachedJobs::new).orElse(null));
  }

  @Override
  public String name() {
    return "slurm";
  }

  @Override
  public ComputePolicy policy() {
    return policy;
  }

  @Override
  public JobDirectories directories() {
    return directories;
  }

  @Override
  public JobAccount prepare(ProgramStart job) throws JobFailure, IOException {
    return HostJobs.prepare(job);
  }

  @Override
  public RunningJob start(ProgramStart job, JobAccount account) throws LaunchException {
    return submit(job, job.launch().withAccount(account), account);
  }

  /** The Slurm job id is stored before anything else happens. */
  private RunningJob submit(ProgramStart job, LaunchSpec spec, JobAccount account)
      throws LaunchException {
    return slurm.submit(
        spec,
        job.batch(),
        SlurmAccounts.runAs(account),
        slurmId -> job.references().record(JobReferences.SLURM + slurmId));
  }

  @Override
  public Optional<RunningJob> reattach(String jobId, String reference) throws JobFailure {
    return references.reattach(jobId, reference);
  }

  @Override
  public Optional<String> farmRefusal() {
    return Optional.empty();
  }

  @Override
  public RunningJob startFarmLaunchers(ProgramStart job, LaunchSpec launchers, JobAccount account)
      throws LaunchException {
    return submit(job, launchers, account);
  }

  @Override
  public void stopFarmLaunchers(String jobId, String reference) throws JobFailure {
    references.stopFarmLaunchers(jobId, reference);
  }

  @Override
  public Optional<String> sessionRefusal() {
    return Optional.of(Refusals.SESSIONS_OUTSIDE_SLURM);
  }

  @Override
  public RunningJob startSessionWorkers(Path directory, LaunchSpec launchers, JobAccount account)
      throws LaunchException {
    throw new LaunchException(Refusals.SESSIONS_OUTSIDE_SLURM);
  }

  @Override
  public void forget(String jobId) {
    references.forget(jobId);
  }

  @Override
  public void close() {
    slurm.close();
    if (detached != null) {
      detached.close();
    }
  }
}
