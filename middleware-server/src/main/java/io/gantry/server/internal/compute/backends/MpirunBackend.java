package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DetachedJobs;
import io.gantry.dispatcher.DetachedSupervision;
import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.PosixLauncher;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.compute.BackendContext;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputePolicy;
import io.gantry.server.internal.compute.JobDirectories;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * The backends that start programs from this host through the dispatcher's launchers: MPI programs
 * through mpirun (here, or across hosts), others forked directly, each as its owner's OS account,
 * under {@code jobs.supervisor} where it is set so that they outlive the server. Task farms and
 * worker sessions start their launchers the same way.
 */
abstract class MpirunBackend implements ComputeBackend {
  private final String name;
  private final ComputePolicy policy;
  private final JobDirectories directories;
  private final DetachedJobs detached;
  private final JobReferences references;
  private final Launcher mpi;
  private final PosixLauncher posix;

  /** Worker sessions' launchers: {@link #mpi} without the job supervisor. */
  private final Launcher sessionMpi;

  /** mpirun as the server starts it (mpirun.path). */
  private final String mpirun;

  /**
   * @param mpiLauncher makes the MPI launcher for a dispatcher configuration
   */
  MpirunBackend(
      String name,
      ComputePolicy policy,
      BackendContext context,
      Function<DispatcherConfig, Launcher> mpiLauncher) {
    this.name = name;
    this.policy = policy;
    this.directories = new HostDirectories(context.config().stagingRoot());
    Optional<DetachedSupervision> supervision = StartupChecks.supervision(context.config(), true);
    DispatcherConfig dispatch =
        supervision.map(context.dispatch()::withDetachedSupervision).orElse(context.dispatch());
    this.detached = supervision.map(DetachedJobs::new).orElse(null);
    this.references = new JobReferences(detached, null);
    this.mpi = mpiLauncher.apply(dispatch);
    this.posix = new PosixLauncher(dispatch);
    this.sessionMpi = supervision.isPresent() ? mpiLauncher.apply(context.dispatch()) : mpi;
    this.mpirun = context.config().mpirunPath();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Optional<String> readinessProblem() {
    return ProgramOnPath.problem(mpirun);
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
    Launcher launcher = job.launch().kind() == ProgramKind.MPI ? mpi : posix;
    RunningJob running = launcher.launch(job.launch().withAccount(account));
    // So that a restarted server finds the job's supervisor again. Not waited for on disk: the
    // supervisor wrote its start record before the program began, and a server that stopped
    // before this was stored finds the job by that (startedReference), as it would have had it
    // stopped just before this line.
    running.reattachReference().ifPresent(job.references()::recordRecoverable);
    return running;
  }

  @Override
  public Optional<RunningJob> reattach(String jobId, String reference) throws JobFailure {
    return references.reattach(jobId, reference);
  }

  @Override
  public Optional<String> startedReference(String jobId) {
    return references.startedReference(jobId);
  }

  @Override
  public Optional<String> farmRefusal() {
    return Optional.empty();
  }

  /** The launchers end with this server: a farm is resumed from its journal, not re-attached. */
  @Override
  public RunningJob startFarmLaunchers(ProgramStart job, LaunchSpec launchers, JobAccount account)
      throws LaunchException {
    job.references().record("local");
    return mpi.launch(launchers);
  }

  @Override
  public void stopFarmLaunchers(String jobId, String reference) throws JobFailure {
    references.stopFarmLaunchers(jobId, reference);
  }

  @Override
  public Optional<String> sessionRefusal() {
    return Optional.empty();
  }

  @Override
  public RunningJob startSessionWorkers(Path directory, LaunchSpec launchers, JobAccount account)
      throws LaunchException, IOException {
    HostJobs.prepareSession(directory, account);
    return sessionMpi.launch(launchers);
  }

  @Override
  public void forget(String jobId) {
    references.forget(jobId);
  }

  @Override
  public void close() {
    if (sessionMpi != mpi) {
      Closing.quietly(sessionMpi);
    }
    posix.close();
    Closing.quietly(mpi);
    if (detached != null) {
      detached.close();
    }
  }
}
