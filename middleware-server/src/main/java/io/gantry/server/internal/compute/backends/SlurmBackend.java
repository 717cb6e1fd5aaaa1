package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DetachedJobs;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.slurm.SlurmConfig;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.BackendContext;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputePolicy;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.scheduler.JobFailure;
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
public final class SlurmBackend extends SlurmJobsBackend {
  private final DetachedJobs detached;

  /** sbatch as the server starts it (slurm.bin-dir, else PATH). */
  private final String sbatch;

  private SlurmBackend(ServerConfig config, SlurmLauncher slurm, DetachedJobs detached) {
    super(policy(config.compute()), new HostDirectories(config.stagingRoot()), slurm, detached);
    this.detached = detached;
    Path bin = config.compute().slurmBinDirectory();
    this.sbatch = bin == null ? "sbatch" : bin.resolve("sbatch").toString();
  }

  @Override
  public Optional<String> readinessProblem() {
    return ProgramOnPath.problem(sbatch);
  }

  /** What this backend makes of jobs (the registration's policy). */
  public static ComputePolicy policy(ServerConfig.Compute c) {
    return new ComputePolicy(
        "slurm",
        false,
        false,
        true,
        false,
        c.slurmPartition(),
        c.slurmAccount(),
        c.slurmUsers(),
        false);
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
                    SlurmConfig.DEFAULT_INHERITED_ENVIRONMENT)
                .withNodeSandbox(NodeSandboxes.of(config, context.dispatch())));
    return new SlurmBackend(
        config,
        slurm,
        StartupChecks.supervision(config, false).map(DetachedJobs::new).orElse(null));
  }

  @Override
  public JobAccount prepare(ProgramStart job) throws JobFailure, IOException {
    return HostJobs.prepare(job);
  }

  /** As the job owner's OS account (root's {@code sbatch --uid}). */
  @Override
  public RunningJob start(ProgramStart job, JobAccount account) throws LaunchException {
    return submit(job, job.launch().withAccount(account), SlurmAccounts.runAs(account));
  }

  @Override
  public Optional<String> farmRefusal() {
    return Optional.empty();
  }

  /** The launchers are one Slurm job, as the job owner's account. */
  @Override
  public RunningJob startFarmLaunchers(ProgramStart job, LaunchSpec launchers, JobAccount account)
      throws LaunchException {
    return submit(job, launchers, SlurmAccounts.runAs(account));
  }

  @Override
  public void close() {
    super.close();
    if (detached != null) {
      detached.close();
    }
  }
}
