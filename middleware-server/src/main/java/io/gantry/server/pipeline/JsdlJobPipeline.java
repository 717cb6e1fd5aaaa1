package io.gantry.server.pipeline;

import io.gantry.dispatcher.DetachedJobs;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.server.metrics.ServerMetrics;
import io.gantry.server.scheduler.JobFailure;
import io.gantry.server.scheduler.JobPipeline;
import io.gantry.server.scheduler.PhaseProgress;
import io.gantry.server.store.DataMovement;
import io.gantry.server.store.JobRecord;
import io.gantry.server.store.JobStore;
import io.gantry.staging.ClusterConnection;
import io.gantry.staging.Manifest;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.StagingException;
import io.gantry.staging.StagingGateway;
import io.gantry.staging.StagingListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Carries out JSDL jobs: stage-in through the {@link StagingGateway} into a clean job directory,
 * the program through the dispatcher, stage-out back through the gateway. Each phase's manifest is
 * recorded in the job store.
 */
public final class JsdlJobPipeline implements JobPipeline<JsdlJobPlan> {
  /** Prefix of a stored Slurm job id ({@link JobStore#recordComputeRef}). */
  static final String SLURM_REF = "slurm:";

  /**
   * Prefix of a task farm's stored reference: "farm:local", or "farm:slurm:ID". A farm is resumed,
   * not re-attached: its journal holds what it finished.
   */
  static final String FARM_REF = "farm:";

  private final JsdlParser parser;
  private final JobPlanner planner;
  private final StagingGateway gateway;
  private final Launcher mpiLauncher;
  private final Launcher posixLauncher;
  private final JobStore store;
  private final SlurmLauncher slurm;
  private final DetachedJobs detached;
  private TaskFarmRunner farms;

  /** The cluster holding the job directories (compute.ssh-host); null: they are on this host. */
  private ClusterConnection cluster;

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(JsdlJobPipeline.class);

  public JsdlJobPipeline(
      JsdlParser parser,
      JobPlanner planner,
      StagingGateway gateway,
      Launcher mpiLauncher,
      Launcher posixLauncher,
      JobStore store) {
    this(parser, planner, gateway, mpiLauncher, posixLauncher, store, null);
  }

  /** With {@code slurm} non-null every job, MPI or not, is submitted to Slurm. */
  public JsdlJobPipeline(
      JsdlParser parser,
      JobPlanner planner,
      StagingGateway gateway,
      Launcher mpiLauncher,
      Launcher posixLauncher,
      JobStore store,
      SlurmLauncher slurm) {
    this(parser, planner, gateway, mpiLauncher, posixLauncher, store, slurm, null);
  }

  /**
   * With {@code detached} non-null, local jobs run under supervisors that outlive the server, and
   * jobs a previous server started that way are followed again.
   */
  public JsdlJobPipeline(
      JsdlParser parser,
      JobPlanner planner,
      StagingGateway gateway,
      Launcher mpiLauncher,
      Launcher posixLauncher,
      JobStore store,
      SlurmLauncher slurm,
      DetachedJobs detached) {
    this.slurm = slurm;
    this.detached = detached;
    this.parser = parser;
    this.planner = planner;
    this.gateway = gateway;
    this.mpiLauncher = mpiLauncher;
    this.posixLauncher = posixLauncher;
    this.store = store;
  }

  /** Rows, bytes, seconds and cache hits of every staging phase, recorded from now on. */
  private volatile ServerMetrics metrics = new ServerMetrics();

  /** Records each staging phase's manifest in {@code metrics}; returns this. */
  public JsdlJobPipeline recordingTo(ServerMetrics metrics) {
    this.metrics = metrics;
    return this;
  }

  /** Runs task-farm jobs through {@code runner}; returns this. */
  public JsdlJobPipeline withTaskFarms(TaskFarmRunner runner) {
    this.farms = runner;
    return this;
  }

  /**
   * Job directories on {@code cluster} (null: on this host): stage-in and stage-out stream over its
   * SFTP channels, the job is submitted to the Slurm on its login node ({@code slurm} must be the
   * launcher made for it), and nothing of the job is written on this host. Task farms and job
   * supervisors stay features of local jobs: the planner refuses a farm for a cluster at
   * submission, and the configuration refuses {@code jobs.supervisor} with {@code
   * compute.ssh-host}.
   */
  public JsdlJobPipeline onCluster(ClusterConnection cluster) {
    if (cluster != null && slurm == null) {
      throw new IllegalArgumentException("a cluster reached over SSH runs its jobs through Slurm");
    }
    this.cluster = cluster;
    return this;
  }

  @Override
  public JsdlJobPlan plan(JobRecord job, String jobDescription) throws JobFailure {
    // a template is stored as written: fill it with the values stored beside it
    ParseResult parsed = parser.parse(jobDescription, store.origin(job.id()).parameters());
    if (!parsed.isValid()) {
      throw new JobFailure("the stored job description is no longer valid: " + parsed.report());
    }
    return planner.plan(job.id(), job.owner(), parsed.validJob());
  }

  @Override
  public void stageIn(JsdlJobPlan plan, PhaseProgress progress)
      throws JobFailure, InterruptedException {
    Manifest manifest;
    if (cluster != null) {
      String dir = plan.jobDirectory().toString();
      try {
        cluster.recreateDirectory(dir);
      } catch (IOException e) {
        throw new JobFailure(
            "cannot prepare the job directory "
                + dir
                + " on "
                + cluster.describe()
                + ": "
                + e.getMessage(),
            e);
      }
      manifest =
          stage(
              () -> gateway.stageIn(plan.stageIn(), cluster, dir, listener("stage-in", progress)));
    } else {
      cleanDirectory(plan.jobDirectory());
      manifest =
          stage(
              () ->
                  gateway.stageIn(
                      plan.stageIn(), plan.jobDirectory(), listener("stage-in", progress)));
    }
    store.recordDataMovements(
        plan.jobId(), DataMovement.STAGE_IN, movements(DataMovement.STAGE_IN, manifest));
    StagingMetrics.record(metrics, "in", manifest.records());
  }

  @Override
  public RunningJob launch(JsdlJobPlan plan) throws JobFailure {
    if (!plan.runsProgram()) {
      throw new JobFailure("the job has no application to run"); // the scheduler never asks
    }
    if (cluster != null) {
      return launchOnCluster(plan);
    }
    Launcher launcher = plan.launch().kind() == ProgramKind.MPI ? mpiLauncher : posixLauncher;
    // looked up again now, not at submission: the mapping or the account may have changed since
    JobAccount account = planner.accountOf(plan.owner());
    if (plan.launch().hostFile() != null) {
      LocalHostFile.check(
          plan.jobDirectory(), plan.launch().hostFile()); // only local jobs carry their own
    }
    try {
      Files.createDirectories(plan.launch().workingDirectory());
      Files.createDirectories(plan.launch().stdout().getParent());
      Files.createDirectories(plan.launch().stderr().getParent());
      JobDirectoryOwner.give(plan.jobDirectory(), account);
      giveStagedFileSystemFiles(plan, account);
      if (plan.farm() != null) {
        if (farms == null) {
          throw new JobFailure("this server runs no task farms");
        }
        return farms.launch(
            plan, plan.launch().withAccount(account), spec -> startFarm(plan, spec, account));
      }
      if (slurm != null) {
        // Stored before anything else happens, so that a restarted server finds the job again.
        return slurm.submit(
            plan.launch().withAccount(account),
            plan.batch(),
            SlurmAccounts.runAs(account),
            slurmId -> store.recordComputeRef(plan.jobId(), SLURM_REF + slurmId));
      }
      RunningJob running = launcher.launch(plan.launch().withAccount(account));
      // Stored at once, so that a restarted server finds the job's supervisor again.
      running.reattachReference().ifPresent(ref -> store.recordComputeRef(plan.jobId(), ref));
      return running;
    } catch (LaunchException | IOException | IllegalArgumentException e) {
      throw new JobFailure(e.getMessage(), e);
    }
  }

  /**
   * Submits to the cluster's Slurm over SSH. The job runs as the cluster account the server logs in
   * as (compute.ssh-user): there is no per-user account switch on the cluster, and the directories
   * its output goes to are made over SFTP first.
   */
  private RunningJob launchOnCluster(JsdlJobPlan plan) throws JobFailure {
    if (plan.farm() != null) {
      // refused at submission; this is a farm submitted before compute.ssh-host was set
      throw new JobFailure(
          "task farms run on the server's own host, and this server runs its jobs on the cluster"
              + " of compute.ssh-host");
    }
    try {
      for (Path dir :
          List.of(
              plan.launch().workingDirectory(),
              plan.launch().stdout().getParent(),
              plan.launch().stderr().getParent())) {
        cluster.createDirectories(dir.toString());
      }
      return slurm.submit(
          plan.launch(),
          plan.batch(),
          null,
          slurmId -> store.recordComputeRef(plan.jobId(), SLURM_REF + slurmId));
    } catch (LaunchException | IOException | IllegalArgumentException e) {
      throw new JobFailure(e.getMessage(), e);
    }
  }

  /** The launchers of a farm, through the compute backend; the reference is stored first. */
  private RunningJob startFarm(
      JsdlJobPlan plan, io.gantry.dispatcher.LaunchSpec spec, JobAccount account)
      throws LaunchException {
    if (slurm != null) {
      return slurm.submit(
          spec,
          plan.batch(),
          SlurmAccounts.runAs(account),
          slurmId -> store.recordComputeRef(plan.jobId(), FARM_REF + SLURM_REF + slurmId));
    }
    store.recordComputeRef(plan.jobId(), FARM_REF + "local");
    return mpiLauncher.launch(spec);
  }

  /**
   * Resumes a farm after a restart: its old launchers (a Slurm job that may still run) are stopped,
   * and new ones are started against a new dispatcher that reads the farm's journal.
   */
  private Optional<RunningJob> resumeFarm(JsdlJobPlan plan, String computeRef) throws JobFailure {
    String inner = computeRef.substring(FARM_REF.length());
    if (inner.startsWith(SLURM_REF) && slurm != null) {
      RunningJob old = slurm.reattach(plan.jobId().toString(), inner.substring(SLURM_REF.length()));
      old.terminate(java.time.Duration.ofSeconds(5));
      try {
        old.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new JobFailure("interrupted while stopping the farm's old launchers", e);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        LOG.warn("job {}: the farm's old Slurm job did not end: {}", plan.jobId(), e.toString());
      }
    }
    if (plan.farm() == null) {
      return Optional.empty();
    }
    LOG.info("job {}: resuming its task farm after the restart", plan.jobId());
    return Optional.of(launch(plan));
  }

  @Override
  public Optional<RunningJob> reattach(JsdlJobPlan plan, String computeRef) throws JobFailure {
    if (computeRef.startsWith(DetachedJobs.REFERENCE_PREFIX)) {
      if (detached == null) {
        throw new JobFailure(
            "the job runs under a job supervisor ("
                + computeRef
                + ") and this server has no jobs.supervisor");
      }
      return Optional.of(detached.reattach(plan.jobId().toString(), computeRef));
    }
    if (computeRef.startsWith(FARM_REF)) {
      return resumeFarm(plan, computeRef);
    }
    if (!computeRef.startsWith(SLURM_REF)) {
      return Optional.empty();
    }
    if (slurm == null) {
      throw new JobFailure(
          "the job runs in Slurm ("
              + computeRef
              + ") and this server's compute backend is not slurm");
    }
    return Optional.of(
        slurm.reattach(plan.jobId().toString(), computeRef.substring(SLURM_REF.length())));
  }

  /**
   * Stages out. A stage-out that fails after some of its steps committed (group 1 loaded, group 2
   * refused) cannot take them back: those steps are recorded all the same, so results, audit and
   * the job page show them, and the failure names them.
   */
  @Override
  public void stageOut(JsdlJobPlan plan, PhaseProgress progress)
      throws JobFailure, InterruptedException {
    List<ManifestRecord> finished = new CopyOnWriteArrayList<>();
    Manifest manifest;
    try {
      manifest =
          stage(
              () ->
                  cluster != null
                      ? gateway.stageOut(
                          plan.stageOut(),
                          cluster,
                          plan.jobDirectory().toString(),
                          recording(listener("stage-out", progress), finished))
                      : gateway.stageOut(
                          plan.stageOut(),
                          plan.jobDirectory(),
                          recording(listener("stage-out", progress), finished)));
    } catch (JobFailure e) {
      Manifest committed = new Manifest(finished);
      store.recordDataMovements(
          plan.jobId(), DataMovement.STAGE_OUT, movements(DataMovement.STAGE_OUT, committed));
      StagingMetrics.record(metrics, "out", committed.records());
      // the staging error (often the database's own long message) is shortened so that the
      // committed steps still fit the stored failure reason
      String error =
          e.getMessage().length() > 2000
              ? e.getMessage().substring(0, 1997) + "..."
              : e.getMessage();
      throw new JobFailure(error + "; " + CommittedSteps.describe(committed.records()), e);
    }
    store.recordDataMovements(
        plan.jobId(), DataMovement.STAGE_OUT, movements(DataMovement.STAGE_OUT, manifest));
    StagingMetrics.record(metrics, "out", manifest.records());
  }

  /**
   * {@code listener}, also keeping every finished step (its output is in place, its rows
   * committed).
   */
  private static StagingListener recording(
      StagingListener listener, List<ManifestRecord> finished) {
    return new StagingListener() {
      @Override
      public void groupStarted(String phase, int index, int count, int groupNumber) {
        listener.groupStarted(phase, index, count, groupNumber);
      }

      @Override
      public void progress(long rowsSoFar, long bytesSoFar) {
        listener.progress(rowsSoFar, bytesSoFar);
      }

      @Override
      public void stepFinished(ManifestRecord record) {
        finished.add(record);
        listener.stepFinished(record);
      }
    };
  }

  /**
   * GFD.56 DeleteOnTermination, once the job is final whatever its outcome. A file that cannot be
   * deleted is logged: the job's outcome is already recorded and stays as it is.
   */
  @Override
  public void terminated(JsdlJobPlan plan) {
    if (detached != null) {
      detached.forget(plan.jobId().toString()); // its end is in the job store now
    }
    if (plan.farm() != null && farms != null) {
      farms.forget(plan.jobId());
    }
    try {
      List<io.gantry.staging.StagedName> removed =
          cluster != null
              ? gateway.deleteOnTermination(
                  plan.stageOut(), cluster, plan.jobDirectory().toString())
              : gateway.deleteOnTermination(plan.stageOut(), plan.jobDirectory());
      if (!removed.isEmpty()) {
        LOG.info("job {}: DeleteOnTermination removed {}", plan.jobId(), removed);
      }
    } catch (StagingException e) {
      LOG.warn("job {}: DeleteOnTermination: {}", plan.jobId(), e.getMessage());
    }
  }

  /**
   * Files staged into a JSDL file system are the server's when written; the job reads (and in a
   * read-write file system may replace) them as its own account, like its job directory's files.
   * Links are never followed; a name that is no longer a regular file is left alone.
   */
  private static void giveStagedFileSystemFiles(JsdlJobPlan plan, JobAccount account)
      throws IOException {
    for (io.gantry.staging.UriTransfer t : plan.stageIn().uriTransfers()) {
      if (t.fileSystem() == null) {
        continue;
      }
      Path file = t.fileSystem().root().resolve(t.fileName()).normalize();
      if (file.startsWith(t.fileSystem().root())
          && Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        JobDirectoryOwner.giveFile(file, account);
      }
    }
  }

  /**
   * The job's directory, created empty and private (0700, the server's until launch): a stage-in
   * that runs again starts from nothing.
   */
  private static void cleanDirectory(Path dir) throws JobFailure {
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> paths = Files.walk(dir)) {
          for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
            if (!p.equals(dir)) {
              Files.delete(p);
            }
          }
        }
      }
      JobDirectoryOwner.createPrivate(dir);
    } catch (IOException e) {
      throw new JobFailure("cannot prepare the job directory " + dir + ": " + e.getMessage(), e);
    }
  }

  private interface StagingCall {
    Manifest run() throws StagingException;
  }

  private static Manifest stage(StagingCall call) throws JobFailure, InterruptedException {
    try {
      return call.run();
    } catch (StagingException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("staging interrupted");
      }
      throw new JobFailure(e.getMessage(), e);
    }
  }

  private static StagingListener listener(String phase, PhaseProgress progress) {
    return new StagingListener() {
      private volatile String group = phase;
      private volatile long lastReport;

      @Override
      public void groupStarted(String kind, int index, int count, int groupNumber) {
        group = phase + ": " + kind + " group " + index + " of " + count;
        progress.report(group);
      }

      @Override
      public void progress(long rowsSoFar, long bytesSoFar) {
        long now = System.nanoTime();
        if (now - lastReport > 500_000_000L) { // at most two progress writes a second
          lastReport = now;
          progress.report(group + ", " + rowsSoFar + " rows, " + bytesSoFar + " bytes");
        }
      }
    };
  }

  private static List<DataMovement> movements(String phase, Manifest manifest) {
    return manifest.records().stream().map(r -> movement(phase, r)).toList();
  }

  private static DataMovement movement(String phase, ManifestRecord r) {
    return new DataMovement(
        phase,
        r.kind(),
        r.source(),
        r.detail(),
        r.file(),
        r.rows(),
        r.bytes(),
        r.sha256(),
        r.seconds(),
        r.skipped());
  }
}
