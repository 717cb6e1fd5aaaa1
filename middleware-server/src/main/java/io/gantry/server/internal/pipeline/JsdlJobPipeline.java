package io.gantry.server.internal.pipeline;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.RunningJob;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.JobDirectories;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.metrics.ServerMetrics;
import io.gantry.server.internal.plan.JobPlanner;
import io.gantry.server.internal.plan.JsdlJobPlan;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.server.internal.scheduler.JobPipeline;
import io.gantry.server.internal.scheduler.PhaseProgress;
import io.gantry.server.internal.taskfarm.TaskFarmRunner;
import io.gantry.staging.Manifest;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import io.gantry.staging.StagingException;
import io.gantry.staging.StagingGateway;
import io.gantry.staging.StagingListener;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Carries out JSDL jobs: stage-in through the {@link StagingGateway} into a clean job directory,
 * the program through the {@link ComputeBackend}, stage-out back through the gateway. Each phase's
 * manifest is recorded in the job store. Which backend runs the job, where its directory lies and
 * as which account it runs are the backend's: nothing here asks which backend it is.
 */
public final class JsdlJobPipeline implements JobPipeline<JsdlJobPlan> {
  /**
   * Prefix of a task farm's stored reference: "farm:" and its launchers' reference. A farm is
   * resumed, not re-attached: its journal holds what it finished.
   */
  static final String FARM_REF = "farm:";

  private final JsdlParser parser;
  private final JobPlanner planner;
  private final StagingGateway gateway;
  private final JobStore store;
  private final ComputeBackend backend;
  private final StageOutHook afterLoad;
  private TaskFarmRunner farms;

  /** The stage-ins programs read as they arrive (gx:Stream), while they run. */
  private final ProgramStreams streams = new ProgramStreams();

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(JsdlJobPipeline.class);

  public JsdlJobPipeline(
      JsdlParser parser,
      JobPlanner planner,
      StagingGateway gateway,
      JobStore store,
      ComputeBackend backend,
      StageOutHook afterLoad) {
    this.parser = parser;
    this.planner = planner;
    this.gateway = gateway;
    this.store = store;
    this.backend = backend;
    this.afterLoad = afterLoad;
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
   * Stops a job whose streamed input failed, with the reason (the scheduler's stop method: a
   * running program terminated, the job FAILED); returns this.
   */
  public JsdlJobPipeline stoppingStreamsWith(
      java.util.function.BiPredicate<io.gantry.server.internal.jobstore.JobId, String> stops) {
    streams.stopWith(stops::test);
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
    JobDirectories directories = backend.directories();
    directories.recreate(plan.jobDirectory());
    boolean streaming = streamsIntoProgram(plan);
    if (!plan.streams().isEmpty() && !streaming) {
      LOG.info(
          "job {}: its gx:Stream inputs are staged completely before the program starts ({})",
          plan.jobId(),
          plan.farm() != null
              ? "a task farm's tasks do not read streams"
              : "compute.backend "
                  + backend.policy().backend()
                  + " feeds gx:Stream pipe only to a program on this host");
    }
    io.gantry.staging.StageInPlan now = streaming ? withoutStreams(plan) : plan.stageIn();
    Manifest manifest =
        stage(
            () ->
                directories.stageIn(
                    gateway, now, plan.jobDirectory(), listener("stage-in", progress)));
    if (movesData(now)) {
      store.recordDataMovements(
          plan.jobId(), DataMovement.STAGE_IN, movements(DataMovement.STAGE_IN, manifest));
    }
    FaultPoint.STAGE_IN_RECORDED.reached();
    StagingMetrics.record(metrics, "in", manifest.records());
    if (streaming) {
      streams.start(
          plan,
          backend.policy().streamsAcrossHosts(),
          directories.spillRoot().resolve(plan.jobId().toString()),
          name -> directories.createAppended(plan.jobDirectory(), name),
          input ->
              spill ->
                  directories.followInto(
                      gateway,
                      new io.gantry.staging.StageInPlan(
                          List.of(), List.of(), List.of(input.transfer())),
                      plan.jobDirectory(),
                      spill),
          (id, streamed) -> {
            store.recordDataMovements(
                id, DataMovement.STAGE_IN, movements(DataMovement.STAGE_IN, streamed));
            StagingMetrics.record(metrics, "in", streamed.records());
          });
    }
  }

  /**
   * Whether the job's program reads its gx:Stream inputs as they arrive, for a job that runs its
   * program once: where the backend can feed each of them to the program where it runs
   * (ComputePolicy#streamsIntoPrograms); else all are staged completely before it starts.
   */
  private boolean streamsIntoProgram(JsdlJobPlan plan) {
    return !plan.streams().isEmpty()
        && plan.farm() == null
        && plan.runsProgram()
        && plan.streams().stream()
            .allMatch(s -> backend.policy().streamsIntoPrograms(s.delivery()));
  }

  /** The job's stage-ins but its streamed ones, which run beside the program. */
  private static io.gantry.staging.StageInPlan withoutStreams(JsdlJobPlan plan) {
    io.gantry.staging.StageInPlan in = plan.stageIn();
    List<io.gantry.staging.UriTransfer> streamed =
        plan.streams().stream()
            .map(io.gantry.server.internal.plan.StreamedInput::transfer)
            .toList();
    return new io.gantry.staging.StageInPlan(
        in.transfers(),
        in.extracts(),
        in.uriTransfers().stream().filter(t -> !streamed.contains(t)).toList());
  }

  @Override
  public RunningJob launch(JsdlJobPlan plan) throws JobFailure {
    if (!plan.runsProgram()) {
      throw new JobFailure("the job has no application to run"); // the scheduler never asks
    }
    if (plan.farm() != null) {
      // refused at submission where the backend runs no farms; this one was submitted before
      Optional<String> refusal = backend.farmRefusal();
      if (refusal.isPresent()) {
        throw new JobFailure(refusal.get());
      }
    }
    Optional<String> streamFailed = streams.failure(plan.jobId());
    if (streamFailed.isPresent()) {
      throw new JobFailure(streamFailed.get()); // while it waited for its slots
    }
    if (streamsIntoProgram(plan) && !streams.streams(plan.jobId())) {
      // STAGED before a restart: the streams began with the server that stopped
      throw new JobFailure(
          "the server restarted after this job's streamed inputs (gx:Stream) began; nothing feeds"
              + " them now: submit the job again");
    }
    try {
      ProgramStart job = programStart(plan, computeRefs(plan));
      JobAccount account = backend.prepare(job);
      if (plan.farm() == null) {
        return streams.following(plan.jobId(), backend.start(job, account));
      }
      if (farms == null) {
        throw new JobFailure("this server runs no task farms");
      }
      ProgramStart launchers = programStart(plan, ref -> recordComputeRef(plan, FARM_REF + ref));
      return farms.launch(
          plan,
          plan.launch().withAccount(account),
          spec -> backend.startFarmLaunchers(launchers, spec, account));
    } catch (LaunchException | IOException | IllegalArgumentException e) {
      throw new JobFailure(e.getMessage(), e);
    }
  }

  private void recordComputeRef(JsdlJobPlan plan, String ref) {
    FaultPoint.PROGRAM_STARTED.reached();
    store.recordComputeRef(plan.jobId(), ref);
  }

  /** The program's reference: durably, or, where its starter also recorded it, lazily. */
  private ProgramStart.References computeRefs(JsdlJobPlan plan) {
    return new ProgramStart.References() {
      @Override
      public void record(String ref) {
        recordComputeRef(plan, ref);
      }

      @Override
      public void recordRecoverable(String ref) {
        FaultPoint.PROGRAM_STARTED.reached();
        store.recordComputeRefLazily(plan.jobId(), ref);
      }
    };
  }

  /** The job's program as the backend starts it; its reference goes to {@code references}. */
  private ProgramStart programStart(JsdlJobPlan plan, ProgramStart.References references) {
    return new ProgramStart(
        plan.jobId().toString(),
        plan.jobDirectory(),
        plan.launch(),
        plan.batch(),
        () -> planner.accountOf(plan.owner()),
        references);
  }

  /**
   * Resumes a farm after a restart: its old launchers (a Slurm job that may still run) are stopped,
   * and new ones are started against a new dispatcher that reads the farm's journal.
   */
  private Optional<RunningJob> resumeFarm(JsdlJobPlan plan, String computeRef) throws JobFailure {
    backend.stopFarmLaunchers(plan.jobId().toString(), computeRef.substring(FARM_REF.length()));
    if (plan.farm() == null) {
      return Optional.empty();
    }
    LOG.info("job {}: resuming its task farm after the restart", plan.jobId());
    return Optional.of(launch(plan));
  }

  /** A farm stores its reference before its launchers start, so only a single program has none. */
  @Override
  public Optional<String> startedReference(JsdlJobPlan plan) {
    return plan.farm() != null
        ? Optional.empty()
        : backend.startedReference(plan.jobId().toString());
  }

  @Override
  public Optional<RunningJob> reattach(JsdlJobPlan plan, String computeRef) throws JobFailure {
    if (computeRef.startsWith(FARM_REF)) {
      return resumeFarm(plan, computeRef);
    }
    Optional<RunningJob> running =
        backend.reattach(plan.jobId().toString(), plan.jobDirectory(), computeRef);
    if (streamsIntoProgram(plan) && running.isPresent()) {
      // its streams ended with the server that fed them: what it read since is not its input
      running.get().terminate(java.time.Duration.ZERO);
      throw new JobFailure(
          "the server stopped while the program read a streamed input (gx:Stream); the program"
              + " was stopped");
    }
    return running;
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
                  backend
                      .directories()
                      .stageOut(
                          gateway,
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
    if (movesData(plan.stageOut())) {
      store.recordDataMovements(
          plan.jobId(), DataMovement.STAGE_OUT, movements(DataMovement.STAGE_OUT, manifest));
    }
    FaultPoint.STAGE_OUT_RECORDED.reached();
    StagingMetrics.record(metrics, "out", manifest.records());
    if (manifest.records().stream().anyMatch(r -> SQL_LOAD.equals(r.kind()))) {
      try {
        afterLoad.loaded(plan.jobId(), plan.owner());
      } catch (RuntimeException e) { // the results are loaded: the job's outcome stays as it is
        LOG.warn("job {}: after its stage-out: {}", plan.jobId(), e.toString());
      }
    }
  }

  /**
   * Whether a phase has any step. One without steps moves nothing and has nothing to record, not
   * even in an attempt before a restart (the plan is the same), so its record, a durable write and
   * a sync of the job store, is left out: two of a trivial job's eight syncs.
   */
  private static boolean movesData(StageInPlan phase) {
    return !(phase.transfers().isEmpty()
        && phase.extracts().isEmpty()
        && phase.uriTransfers().isEmpty());
  }

  private static boolean movesData(StageOutPlan phase) {
    return !(phase.loads().isEmpty()
        && phase.transfers().isEmpty()
        && phase.uriTransfers().isEmpty());
  }

  /** The kind of a stage-out step that loaded rows into a database (ManifestRecord). */
  private static final String SQL_LOAD = "sql-load";

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
      public void committing(String step) {
        listener.committing(step);
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
    streams.cut(plan.jobId()); // ended: whatever still streams for it stops
    backend.forget(plan.jobId().toString()); // its end is in the job store now
    if (plan.farm() != null && farms != null) {
      farms.forget(plan.jobId());
    }
    try {
      List<io.gantry.staging.StagedName> removed =
          backend.directories().deleteOnTermination(gateway, plan.stageOut(), plan.jobDirectory());
      if (!removed.isEmpty()) {
        LOG.info("job {}: DeleteOnTermination removed {}", plan.jobId(), removed);
      }
    } catch (StagingException e) {
      LOG.warn("job {}: DeleteOnTermination: {}", plan.jobId(), e.getMessage());
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
    boolean in = phase.equals("stage-in");
    return new StagingListener() {
      private volatile String group = phase;
      private volatile long lastReport;

      @Override
      public void groupStarted(String kind, int index, int count, int groupNumber) {
        (in ? FaultPoint.STAGE_IN_GROUP_STARTED : FaultPoint.STAGE_OUT_GROUP_STARTED).reached();
        group = phase + ": " + kind + " group " + index + " of " + count;
        progress.report(group);
      }

      @Override
      public void committing(String step) {
        FaultPoint.STAGE_OUT_STEP_COMMITTING.reached();
      }

      @Override
      public void stepFinished(ManifestRecord record) {
        if (in) {
          FaultPoint.STAGE_IN_STEP_FINISHED.reached();
        } else if (!record.skipped()) {
          FaultPoint.STAGE_OUT_STEP_COMMITTED.reached();
        }
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
