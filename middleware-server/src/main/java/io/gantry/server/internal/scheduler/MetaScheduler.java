package io.gantry.server.internal.scheduler;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.JobStoreException;
import io.gantry.server.internal.jobstore.ProgramUsage;
import io.gantry.server.internal.jobstore.StateChange;
import io.gantry.server.internal.logging.JobLog;
import io.gantry.server.internal.metrics.ServerMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gantry's meta-scheduler: stages jobs in, starts them on the compute slots by priority class, fair
 * share and submission order ({@link ComputeQueue}), stages them out, and picks everything up again
 * after a restart (re-planned from the stored description, so each job keeps its class).
 *
 * <ol>
 *   <li>One control thread owns every scheduling decision (the {@link ComputeQueue}, the table of
 *       active jobs), so decisions need no locks and happen in a single order.
 *   <li>Stage-in runs ahead of the compute queue in its own bounded pool, in submission order, so
 *       the compute slots do not idle while a database is slow; stage-out has a pool of its own so
 *       results never wait behind other jobs' input.
 *   <li>Every state change is committed to the {@link JobStore} (compare-and-set) before it is
 *       acted on. Where a cancel races with a staging thread, the store decides who won.
 * </ol>
 */
public final class MetaScheduler<P extends JobPlan> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetaScheduler.class);

  private final JobStore store;
  private final JobPipeline<P> pipeline;
  private final Duration killGrace;
  private final ComputeQueue<JobId> queue;
  private final ExecutorService control =
      Executors.newSingleThreadExecutor(threads("gantry-scheduler", 1));
  private final ExecutorService stageInPool;
  private final ExecutorService stageOutPool;

  /**
   * Hands a job-store write the control thread must record (a program's end, a program's start)
   * back to that thread after a wait, while the store is unavailable ({@link UntilStored}): the
   * control thread goes on with the other jobs meanwhile.
   */
  private final ScheduledExecutorService storeRetries =
      Executors.newSingleThreadScheduledExecutor(threads("gantry-store-retry", 5));

  /** An admission waits for the job store to come back (its gates could not be read). */
  private boolean admissionRetryPending;

  /** Jobs between submission and their final state; touched on the control thread only. */
  private final Map<JobId, ActiveJob<P>> active = new HashMap<>();

  /** The priority classes the compute queue orders jobs by. */
  private final QueueClasses classes;

  /** Whether a QUEUED job may begin its stage-in (dependencies, holds). */
  private final JobGate gate;

  /**
   * QUEUED jobs the gate keeps back, in the order they came: they hold no slot and stage nothing
   * until it opens. Touched on the control thread only.
   */
  private final Map<JobId, P> waiting = new LinkedHashMap<>();

  /** What each waiting job waits for, for status readers on any thread. */
  private final Map<JobId, String> waitReasons = new ConcurrentHashMap<>();

  /**
   * The jobs each waiting job's verdict depends on ({@link JobGate#awaited}), and the reverse: the
   * waiting jobs of each such job. A waiting job is decided again only when one of those jobs
   * changes state, its own state or hold changes, or the server recovers, not on every event (with
   * a thousand held jobs every submission re-read them all). Control thread only.
   */
  private final Map<JobId, List<JobId>> awaits = new HashMap<>();

  private final Map<JobId, Set<JobId>> waitersOf = new HashMap<>();

  /** Waiting jobs to decide again at the next {@link #openGates}. Control thread only. */
  private final Set<JobId> undecided = new HashSet<>();

  /**
   * Jobs whose state this scheduler changed since the gates were last opened, noted by whichever
   * thread stored the change before it hands the control thread the event that follows it.
   */
  private final Set<JobId> changedJobs = ConcurrentHashMap.newKeySet();

  private volatile boolean closing;

  /** Queue wait and run time, recorded here where jobs start and end (docs/operations.md). */
  private volatile ServerMetrics metrics = new ServerMetrics();

  private static final class ActiveJob<P> {
    final P plan;
    Future<?> stagingTask;
    RunningJob running;
    String killedBy;

    /** Why the server itself stopped the job (a limit it went over), or null. */
    String stoppedBecause;

    /** Its program ended and its empty stage-out runs, the store still saying RUNNING. */
    boolean endingUnstored;

    ActiveJob(P plan) {
      this.plan = plan;
    }
  }

  /** A job that cannot be planned again from its description (its retry is refused). */
  public static final class NotPlannedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotPlannedException(JobFailure cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** What a cancel or kill request found. */
  public record Decision(boolean applied, JobRecord job) {}

  public MetaScheduler(
      JobStore store,
      JobPipeline<P> pipeline,
      int totalSlots,
      int stagingParallelism,
      Duration killGrace) {
    this(store, pipeline, totalSlots, stagingParallelism, killGrace, JobGate.open());
  }

  public MetaScheduler(
      JobStore store,
      JobPipeline<P> pipeline,
      int totalSlots,
      int stagingParallelism,
      Duration killGrace,
      JobGate gate) {
    this(store, pipeline, totalSlots, stagingParallelism, killGrace, gate, QueueClasses.single());
  }

  public MetaScheduler(
      JobStore store,
      JobPipeline<P> pipeline,
      int totalSlots,
      int stagingParallelism,
      Duration killGrace,
      JobGate gate,
      QueueClasses classes) {
    this.classes = classes;
    this.gate = gate;
    this.store = store;
    this.pipeline = pipeline;
    this.killGrace = killGrace;
    this.queue = new ComputeQueue<>(totalSlots);
    this.stageInPool =
        Executors.newFixedThreadPool(stagingParallelism, threads("gantry-stage-in", 5));
    this.stageOutPool =
        Executors.newFixedThreadPool(stagingParallelism, threads("gantry-stage-out", 5));
  }

  /** Records each job's queue wait and run time in {@code metrics} from now on. */
  public MetaScheduler<P> recordingTo(ServerMetrics metrics) {
    this.metrics = metrics;
    return this;
  }

  /** Picks up every unfinished job, oldest first; call once, before accepting submissions. */
  public void recover() {
    onControlAndWait(
        () -> {
          for (JobRecord job : store.allInStates(JobState.unfinished())) {
            recoverOne(job);
          }
          undecided.addAll(waiting.keySet()); // a job recovered later may be what one waits for
          admit();
          return null;
        });
  }

  /**
   * Queues a job the store has just recorded as QUEUED, or keeps it waiting at the gate. Returns
   * once decided, so a status read right after submission already says what the job waits for.
   */
  public void submitted(P plan) {
    onControlAndWait(
        () -> {
          if (!keptAtGate(plan)) {
            enqueue(plan, JobState.QUEUED);
          }
          admit(); // a job failed at the gate may be what others wait for
          return null;
        });
  }

  /**
   * Queues a job submitted with no dependencies and no hold, without waiting for the scheduler's
   * thread: the gate has nothing to keep such a job back for, so there is nothing to decide before
   * the submission is answered, while that thread may be busy starting a program or recording one's
   * end, each with a durable write (a third of a submission's time under 32 clients, JFR). Every
   * later request about the job (status reason, hold, cancel) still finds it queued: the thread
   * takes its tasks in the order they came.
   */
  public void submittedWithoutConditions(P plan) {
    onControl(
        () -> {
          if (!keptAtGate(plan)) {
            enqueue(plan, JobState.QUEUED);
          }
          admit();
        });
  }

  /** What a QUEUED job waits for (Slurm's Reason), if the gate keeps it back. */
  public Optional<String> waitReason(JobId id) {
    return Optional.ofNullable(waitReasons.get(id));
  }

  /**
   * Holds a QUEUED job whose stage-in has not begun: it leaves the compute queue (its place too:
   * released, it queues again behind the jobs queued meanwhile) and waits until released. Not
   * applied to a job in any other state.
   */
  public Decision hold(JobId id, String user, java.util.function.BooleanSupplier recordHold) {
    return onControlAndWait(
        () -> {
          JobRecord job = store.find(id).orElse(null);
          if (job == null || job.state() != JobState.QUEUED) {
            return new Decision(false, job);
          }
          P plan;
          if (waiting.containsKey(id)) {
            plan = waiting.get(id);
            if (!recordHold.getAsBoolean()) {
              return new Decision(false, job); // held already
            }
          } else {
            ActiveJob<P> a = active.get(id);
            // a stage-in task that has not started never will; one that has makes it STAGING_IN
            if (a == null || a.stagingTask == null || !a.stagingTask.cancel(false)) {
              return new Decision(false, store.find(id).orElse(job));
            }
            queue.withdraw(id);
            active.remove(id);
            plan = a.plan;
            if (!recordHold.getAsBoolean()) {
              log.warn("job {}: was held while queued; held now", id); // not expected: see V12
            }
          }
          log.info("job {}: held by {}", id, user);
          if (!waiting.containsKey(id)) {
            await(id, plan);
          }
          undecided.add(id); // its reason is its hold now
          admit(); // the held job may have been the head the staged jobs waited behind
          return new Decision(true, store.find(id).orElseThrow());
        });
  }

  /** Looks again at every waiting job (after a hold was lifted); returns the job as it is then. */
  public JobRecord reconsider(JobId released) {
    return onControlAndWait(
        () -> {
          undecided.add(released);
          admit();
          return store.find(released).orElse(null);
        });
  }

  /**
   * Runs the stage-out of a job again whose program succeeded and whose stage-out failed: the job
   * goes back to STAGING_OUT (an entry in its audit trail), and the stage-out skips every step that
   * committed before, by the stage-out ledger in the target database. Not applied when the job is
   * not such a job.
   */
  public Decision retryStageOut(
      JobId id, String user, java.util.function.Predicate<JobRecord> may) {
    return onControlAndWait(
        () -> {
          JobRecord job = store.find(id).orElse(null);
          if (job == null || !may.test(job) || active.containsKey(id)) {
            return new Decision(false, job);
          }
          P plan;
          try {
            plan = pipeline.plan(job, store.jobDescription(id).orElseThrow());
          } catch (JobFailure e) {
            throw new NotPlannedException(e);
          }
          if (!transition(
              id,
              JobState.FAILED,
              JobState.STAGING_OUT,
              "stage-out retried by " + user + "; steps that committed before are skipped")) {
            return new Decision(false, store.find(id).orElse(job));
          }
          ActiveJob<P> a = new ActiveJob<>(plan);
          active.put(id, a);
          a.stagingTask = stageOutPool.submit(() -> stageOut(plan));
          return new Decision(true, store.find(id).orElseThrow());
        });
  }

  /** Cancels a job that has not started its program; otherwise reports the state found. */
  public Decision cancel(JobId id, String user) {
    return onControlAndWait(
        () -> {
          for (int attempt = 0; attempt < 3; attempt++) { // a staging thread may move it meanwhile
            JobRecord job = store.find(id).orElse(null);
            if (job == null || !cancellable(job.state())) {
              return new Decision(false, job);
            }
            if (transition(id, job.state(), JobState.CANCELLED, "cancelled by " + user)) {
              queue.withdraw(id);
              ActiveJob<P> a = active.remove(id);
              if (a != null && job.state() == JobState.STAGED) {
                ended(a.plan); // staged and waiting: nothing runs that would still write its files
              }
              if (a != null && a.stagingTask != null) {
                a.stagingTask.cancel(true);
              }
              admit(); // the cancelled job may have been the head that staged jobs waited behind
              return new Decision(true, store.find(id).orElseThrow());
            }
          }
          return new Decision(false, store.find(id).orElse(null));
        });
  }

  /**
   * Kills a job whose program has started: SIGTERM to its process tree, SIGKILL after the grace
   * period; a job in stage-out has its stage-out interrupted (each step is one transaction, so the
   * target tables keep either all of a step's rows or none). Returns once the kill is under way;
   * the job reaches KILLED when its processes are gone.
   */
  public Decision kill(JobId id, String user) {
    return onControlAndWait(
        () -> {
          JobRecord job = store.find(id).orElse(null);
          ActiveJob<P> a = active.get(id);
          if (job == null || a == null) {
            return new Decision(false, job);
          }
          if (job.state() == JobState.RUNNING
              && a.endingUnstored
              && transition(
                  id,
                  JobState.RUNNING,
                  JobState.KILLED,
                  "killed by " + user + " during stage-out")) {
            // its program has ended and its empty stage-out runs (stageNothingOut): as in
            // STAGING_OUT below
            active.remove(id);
            a.stagingTask.cancel(true);
            return new Decision(true, store.find(id).orElseThrow());
          }
          if (job.state() == JobState.RUNNING && a.running != null) {
            a.killedBy = user;
            a.running.terminate(killGrace);
            return new Decision(true, job);
          }
          if (job.state() == JobState.STAGING_OUT
              && transition(
                  id,
                  JobState.STAGING_OUT,
                  JobState.KILLED,
                  "killed by " + user + " during stage-out")) {
            active.remove(id);
            if (a.stagingTask != null) {
              a.stagingTask.cancel(true);
            }
            return new Decision(true, store.find(id).orElseThrow());
          }
          return new Decision(false, job);
        });
  }

  /**
   * Stops a job that went over one of the server's limits, recording {@code reason} as its failure:
   * a running program is terminated (FAILED once its processes are gone), a stage-in is interrupted
   * (FAILED at once). Returns whether the job was stopped.
   */
  public boolean stop(JobId id, String reason) {
    return onControlAndWait(
        () -> {
          JobRecord job = store.find(id).orElse(null);
          ActiveJob<P> a = active.get(id);
          if (job == null || a == null) {
            return false;
          }
          if (job.state() == JobState.RUNNING && a.running != null && !a.endingUnstored) {
            if (a.stoppedBecause == null && a.killedBy == null) {
              a.stoppedBecause = reason;
              a.running.terminate(killGrace);
            }
            return true;
          }
          if (job.state() == JobState.STAGING_IN
              && transition(id, JobState.STAGING_IN, JobState.FAILED, reason)) {
            queue.withdraw(id);
            active.remove(id);
            if (a.stagingTask != null) {
              a.stagingTask.cancel(true);
            }
            admit();
            return true;
          }
          return false;
        });
  }

  /**
   * The plans of the jobs between submission and their final state, for watchers of their
   * directories.
   */
  public List<P> activePlans() {
    return onControlAndWait(() -> active.values().stream().map(a -> a.plan).toList());
  }

  private static boolean cancellable(JobState state) {
    return state == JobState.QUEUED || state == JobState.STAGING_IN || state == JobState.STAGED;
  }

  // ---- control thread -------------------------------------------------------------------

  private void recoverOne(JobRecord job) {
    try (JobLog scope = JobLog.of(job.id(), job.owner())) {
      recoverOneAsLogged(job);
    }
  }

  private void recoverOneAsLogged(JobRecord job) {
    JobId id = job.id();
    if (job.state() == JobState.RUNNING) {
      if (!reattach(job)) {
        // Its mpirun was a child of the previous server process: its outcome is unknowable.
        transition(
            id,
            JobState.RUNNING,
            JobState.FAILED,
            "server restarted while running; the result is unknown, submit the job again");
      }
      return;
    }
    P plan;
    try {
      String description =
          store
              .jobDescription(id)
              .orElseThrow(
                  () -> new JobFailure("the job's description is missing from the job store"));
      plan = pipeline.plan(job, description);
    } catch (JobFailure e) {
      transition(id, job.state(), JobState.FAILED, e.getMessage());
      return;
    }
    switch (job.state()) {
      case QUEUED -> {
        if (!keptAtGate(plan)) {
          enqueue(plan, JobState.QUEUED);
        }
      }
      case STAGING_IN -> enqueue(plan, job.state());
      case STAGED -> {
        if (enqueue(plan, JobState.STAGED) && plan.runsProgram()) {
          queue.markStaged(id);
        } else if (active.containsKey(id)) {
          stagingOnly(id, active.get(id));
        }
      }
      case STAGING_OUT -> {
        ActiveJob<P> a = new ActiveJob<>(plan);
        active.put(id, a);
        a.stagingTask = stageOutPool.submit(() -> stageOut(plan));
      }
      default -> throw new IllegalStateException("not an unfinished state: " + job.state());
    }
  }

  /**
   * A running job whose program runs outside the server (a Slurm job) is followed again: it keeps
   * its slots and reaches stage-out once, when the batch system reports its end.
   */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // exited() runs on the control thread, which logs its own
  // failures
  private boolean reattach(JobRecord job) {
    JobId id = job.id();
    Optional<String> stored = store.computeRef(id);
    String ref = stored.orElse("(none stored)");
    try {
      String description =
          store
              .jobDescription(id)
              .orElseThrow(
                  () -> new JobFailure("the job's description is missing from the job store"));
      P plan = pipeline.plan(job, description);
      if (stored.isEmpty()) {
        // the previous server stopped between the program's start and storing its reference
        Optional<String> started = pipeline.startedReference(plan);
        if (started.isEmpty()) {
          return false;
        }
        ref = started.get();
        log.info("job {}: its reference was not stored; its starter recorded {}", id, ref);
        store.recordComputeRef(id, ref);
      }
      Optional<RunningJob> running = pipeline.reattach(plan, ref);
      if (running.isEmpty()) {
        return false;
      }
      ActiveJob<P> a = new ActiveJob<>(plan);
      a.running = running.get();
      active.put(id, a);
      queue.restoreRunning(id, plan.slots(), plan.owner());
      a.running.onExit().thenAccept(outcome -> onControl(() -> exited(id, outcome)));
      log.info("job {}: following its program again after the restart ({})", id, ref);
      return true;
    } catch (JobFailure | RuntimeException e) {
      log.warn("job {}: cannot follow {} again: {}", id, ref, e.toString());
      return false;
    }
  }

  /** Adds a job to the compute queue and, unless already staged, starts its stage-in. */
  private boolean enqueue(P plan, JobState state) {
    try (JobLog scope = logFor(plan)) {
      return enqueueAsLogged(plan, state);
    }
  }

  private boolean enqueueAsLogged(P plan, JobState state) {
    JobId id = plan.jobId();
    try {
      if (plan.runsProgram()) {
        queue.enqueue(id, plan.slots(), classes.rank(plan.queueClass()), plan.owner());
      }
    } catch (IllegalArgumentException e) {
      transition(id, state, JobState.FAILED, e.getMessage());
      return false;
    }
    ActiveJob<P> a = new ActiveJob<>(plan);
    active.put(id, a);
    if (state != JobState.STAGED) {
      a.stagingTask = stageInPool.submit(() -> stageIn(plan, state));
    }
    return true;
  }

  private void staged(JobId id) {
    try (JobLog scope = logFor(id)) {
      stagedAsLogged(id);
    }
  }

  private void stagedAsLogged(JobId id) {
    ActiveJob<P> a = active.get(id);
    if (a != null && !a.plan.runsProgram()) {
      stagingOnly(id, a);
      return;
    }
    queue.markStaged(id);
    admit();
  }

  /** A job without a program holds no slot: its stage-out follows its stage-in at once. */
  private void stagingOnly(JobId id, ActiveJob<P> a) {
    stagingOnly(id, a, 0);
  }

  /** As above; while the job store is unavailable, tried again later on this thread. */
  private void stagingOnly(JobId id, ActiveJob<P> a, int attempt) {
    boolean moved;
    try {
      moved =
          transition(
                  id,
                  JobState.STAGED,
                  JobState.STAGING_OUT,
                  "no application to run; stage-out started")
              || (attempt > 0 && alreadyIn(id, JobState.STAGING_OUT));
    } catch (JobStoreException e) {
      if (attempt == 0) {
        log.warn(
            "job {}: the job store did not take its stage-out's start ({})", id, e.getMessage());
      }
      retryLater(
          attempt,
          () -> {
            try (JobLog scope = logFor(id)) {
              stagingOnly(id, a, attempt + 1);
            }
          });
      return;
    }
    if (moved) {
      a.stagingTask = stageOutPool.submit(() -> stageOut(a.plan));
    } else {
      active.remove(id);
    }
  }

  /**
   * Asks the gate about a QUEUED job: true when it keeps the job back (waiting, or failed because
   * it can never run), false when the job may be queued now.
   */
  private boolean keptAtGate(P plan) {
    JobId id = plan.jobId();
    JobGate.Verdict verdict = gate.check(id);
    switch (verdict.kind()) {
      case OPEN -> {
        return false;
      }
      case WAIT -> {
        await(id, plan);
        waitReasons.put(id, verdict.reason());
      }
      case NEVER -> transition(id, JobState.QUEUED, JobState.FAILED, verdict.reason());
    }
    return true;
  }

  /**
   * Moves every waiting job whose gate has opened to the back of the compute queue, in the order
   * they came, and fails those that can never run. Only the waiting jobs something happened to are
   * asked again (a job they await changed state, their own state or hold changed); repeated until
   * nothing changes, as a failed job may be what another waits for.
   */
  private void openGates() {
    while (!closing) {
      for (Iterator<JobId> it = changedJobs.iterator(); it.hasNext(); ) {
        JobId changed = it.next();
        it.remove();
        if (waiting.containsKey(changed)) {
          undecided.add(changed); // cancelled while it waited
        }
        undecided.addAll(waitersOf.getOrDefault(changed, Set.of()));
      }
      if (undecided.isEmpty()) {
        return;
      }
      List<JobId> batch =
          undecided.size() == 1
              ? List.copyOf(undecided)
              : waiting.keySet().stream().filter(undecided::contains).toList(); // in their order
      undecided.clear();
      for (JobId id : batch) {
        if (waiting.containsKey(id)) {
          reconsiderWaiting(id);
        }
      }
    }
  }

  /** Keeps a job waiting at the gate, noting the jobs whose changes may open it. */
  private void await(JobId id, P plan) {
    waiting.put(id, plan);
    List<JobId> on = gate.awaited(id);
    awaits.put(id, on);
    for (JobId other : on) {
      waitersOf.computeIfAbsent(other, k -> new HashSet<>()).add(id);
    }
  }

  /** The job leaves the waiting jobs; returns its plan. */
  private P stopWaiting(JobId id) {
    P plan = waiting.remove(id);
    waitReasons.remove(id);
    for (JobId other : awaits.getOrDefault(id, List.of())) {
      Set<JobId> waiters = waitersOf.get(other);
      if (waiters != null && waiters.remove(id) && waiters.isEmpty()) {
        waitersOf.remove(other);
      }
    }
    awaits.remove(id);
    return plan;
  }

  /** Decides one waiting job again, keeping its place. */
  private void reconsiderWaiting(JobId id) {
    JobRecord job = store.find(id).orElse(null);
    JobGate.Verdict verdict =
        job == null || job.state() != JobState.QUEUED
            ? null // cancelled while it waited
            : gate.check(id);
    if (verdict != null && verdict.kind() == JobGate.Verdict.Kind.WAIT) {
      waitReasons.put(id, verdict.reason());
      return;
    }
    P plan = stopWaiting(id);
    if (verdict == null) {
      return;
    }
    if (verdict.kind() == JobGate.Verdict.Kind.NEVER) {
      try {
        transition(id, JobState.QUEUED, JobState.FAILED, verdict.reason());
      } catch (JobStoreException e) {
        waiting.put(id, plan); // still waiting: decided again once the store is back
        waitReasons.put(id, verdict.reason());
        throw e;
      }
    } else {
      enqueue(plan, JobState.QUEUED);
    }
  }

  /**
   * Starts every job the queue admits, in order, after moving the waiting jobs whose gate opened
   * into the queue (again after each round: a job that could not start may be what one waits for).
   */
  private void admit() {
    List<JobId> admitted;
    do {
      try {
        openGates();
      } catch (JobStoreException e) {
        // the queued jobs can still start; the waiting ones are looked at again later
        if (!admissionRetryPending) {
          log.warn("the waiting jobs cannot be looked at: {}; trying again", e.getMessage());
        }
        admitLater();
      }
      admitted = closing ? List.of() : queue.admit();
      for (JobId id : admitted) {
        launch(id);
      }
    } while (!admitted.isEmpty());
  }

  /** One admission later, however many ask meanwhile. */
  private void admitLater() {
    if (!admissionRetryPending) {
      admissionRetryPending = true;
      retryLater(
          3,
          () -> {
            admissionRetryPending = false;
            admit();
          });
    }
  }

  private void launch(JobId id) {
    try (JobLog scope = logFor(id)) {
      launchAsLogged(id);
    }
  }

  private void launchAsLogged(JobId id) {
    launchAsLogged(id, 0);
  }

  /**
   * Stores the job's start, then starts its program. While the job store is unavailable the job
   * keeps the slot the queue gave it and the start is tried again later on this thread, so the
   * program starts once the store is back (and never before its start is stored).
   */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // exited() runs on the control thread, which logs its own
  // failures
  private void launchAsLogged(JobId id, int attempt) {
    ActiveJob<P> a = active.get(id);
    boolean started;
    try {
      started =
          a != null
              && (transition(
                      id,
                      JobState.STAGED,
                      JobState.RUNNING,
                      "started on " + a.plan.slots() + " slot(s)")
                  || (attempt > 0 && alreadyIn(id, JobState.RUNNING)));
    } catch (JobStoreException e) {
      if (attempt == 0) {
        log.warn(
            "job {}: the job store did not take its start ({}); its program starts once it does",
            id,
            e.getMessage());
      }
      retryLater(attempt, () -> launchAgain(id, attempt + 1));
      return;
    }
    if (!started) {
      queue.finish(id);
      return;
    }
    if (attempt > 0) {
      log.info("job {}: its start is stored now that the job store is back", id);
    }
    try {
      store
          .find(id)
          .ifPresent(job -> metrics.jobStarted(Duration.between(job.submittedAt(), Instant.now())));
    } catch (JobStoreException e) {
      log.debug("job {}: its queue wait is not measured: {}", id, e.getMessage());
    }
    try {
      FaultPoint.LAUNCH_REQUESTED.reached();
      a.running = pipeline.launch(a.plan);
      FaultPoint.PROGRAM_RUNNING.reached();
      a.running.onExit().thenAccept(outcome -> onControl(() -> exited(id, outcome)));
    } catch (JobFailure | RuntimeException e) {
      queue.finish(id);
      active.remove(id);
      transition(
          id, JobState.RUNNING, JobState.FAILED, "could not start the program: " + e.getMessage());
      ended(a.plan);
    }
  }

  private void launchAgain(JobId id, int attempt) {
    try (JobLog scope = logFor(id)) {
      launchAsLogged(id, attempt);
    }
  }

  private void exited(JobId id, JobOutcome outcome) {
    try (JobLog scope = logFor(id)) {
      exitedAsLogged(id, outcome);
    }
  }

  private void exitedAsLogged(JobId id, JobOutcome outcome) {
    ActiveJob<P> a = active.get(id);
    if (closing && a != null && a.running != null && a.running.outlivesServer()) {
      return; // ended as the server stops: the next server finds its end and stages it out
    }
    FaultPoint.PROGRAM_EXITED.reached();
    queue.finish(id);
    StateChange change =
        (a != null && a.stoppedBecause != null && !closing
                ? StateChange.of(JobState.RUNNING, JobState.FAILED, a.stoppedBecause)
                    .withExitCode(outcome.exitStatus())
                : outcomeChange(outcome, a == null ? null : a.killedBy))
            .withUsage(usage(outcome));
    metrics.jobEnded(change.to().name(), outcome.runTime());
    if (change.to() == JobState.STAGING_OUT && a != null && !a.plan.stagesOut()) {
      // stored with its end, in one transaction, by the stage-out thread
      a.endingUnstored = true;
      a.stagingTask = stageOutPool.submit(() -> stageNothingOut(a.plan, change));
    } else {
      recordExit(id, a, change, 0);
    }
    admit();
  }

  /**
   * Stores a program's end and starts its stage-out. While the job store is unavailable the job
   * stays active (its slot is free: its program has ended) and the write is tried again later on
   * this thread, which meanwhile serves the other jobs; when the server stops first, the job stays
   * RUNNING in the store for the next server (docs/reliability.md).
   */
  @SuppressWarnings("FutureReturnValueIgnored") // the retry runs on the control thread, which logs
  private void recordExit(JobId id, ActiveJob<P> a, StateChange change, int attempt) {
    boolean moved;
    try {
      moved = transition(id, change) || (attempt > 0 && alreadyIn(id, change.to()));
    } catch (JobStoreException e) {
      if (attempt == 0) {
        log.warn(
            "job {}: its program ended; the job store did not take its end ({}); trying again"
                + " until it does",
            id,
            e.getMessage());
      }
      retryLater(attempt, () -> recordExitAndAdmit(id, a, change, attempt + 1));
      return;
    }
    if (attempt > 0) {
      log.info("job {}: its program's end is stored now that the job store is back", id);
    }
    if (moved && change.to() == JobState.STAGING_OUT) {
      a.stagingTask = stageOutPool.submit(() -> stageOut(a.plan));
    } else {
      active.remove(id);
      if (a != null) {
        ended(a.plan);
      }
    }
  }

  private void recordExitAndAdmit(JobId id, ActiveJob<P> a, StateChange change, int attempt) {
    try (JobLog scope = logFor(id)) {
      recordExit(id, a, change, attempt);
    }
    admit(); // jobs may wait for this one, or for the store that is back
  }

  /**
   * Runs {@code task} on the control thread after the wait for try {@code attempt + 1}; not when
   * the server stops (the job store keeps what it last took, for the next server).
   */
  @SuppressWarnings("FutureReturnValueIgnored") // the task runs on the control thread, which logs
  private void retryLater(int attempt, Runnable task) {
    if (closing) {
      return;
    }
    try {
      storeRetries.schedule(
          () -> onControl(task), UntilStored.backoff(attempt).toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      log.warn("a job-store write is not tried again: the server stops"); // closed meanwhile
    }
  }

  /** The job is final and no staging task of it runs: its DeleteOnTermination, off this thread. */
  private void ended(P plan) {
    try {
      stageOutPool.execute(() -> terminated(plan));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      log.warn(
          "job {}: ended while the server stops; its DeleteOnTermination files are left",
          plan.jobId());
    }
  }

  private void terminated(P plan) {
    try (JobLog scope = logFor(plan)) {
      terminatedAsLogged(plan);
    }
  }

  private void terminatedAsLogged(P plan) {
    try {
      pipeline.terminated(plan);
    } catch (RuntimeException e) {
      log.warn("job {}: DeleteOnTermination failed: {}", plan.jobId(), e.toString());
    }
  }

  /** What the program used, for accounting: its wall time, and CPU time and tasks if reported. */
  private static ProgramUsage usage(JobOutcome outcome) {
    Duration cpu = outcome.usage().cpuTime();
    return new ProgramUsage(
        Math.max(0, outcome.runTime().toMillis()) / 1e3,
        cpu == null ? null : cpu.toMillis() / 1e3,
        outcome.usage().tasks());
  }

  private StateChange outcomeChange(JobOutcome outcome, String killedBy) {
    StateChange change;
    if (closing) {
      change =
          StateChange.of(
              JobState.RUNNING,
              JobState.FAILED,
              "the server was stopped while the job ran; submit it again");
    } else if (outcome.killed()) {
      // one reason: who stopped it and with which signal; the program's own status after catching
      // SIGTERM (mpirun exits 1) would only blur that, so the signal is what is reported
      String signal =
          outcome.stopSignal() > 0 ? " with " + JobOutcome.signalName(outcome.stopSignal()) : "";
      change =
          StateChange.of(
              JobState.RUNNING,
              JobState.KILLED,
              "killed by "
                  + (killedBy == null ? "an administrator" : killedBy)
                  + signal
                  + (outcome.detail() == null ? "" : " (" + outcome.detail() + ")"));
    } else if (outcome.wallTimeExceeded()) {
      change =
          StateChange.of(
              JobState.RUNNING,
              JobState.FAILED,
              "wall-time limit exceeded after "
                  + outcome.runTime().toSeconds()
                  + " s; raise WallTimeLimit in the job description or make the job faster");
    } else if (outcome.exitStatus() != 0) {
      change =
          StateChange.of(
              JobState.RUNNING,
              JobState.FAILED,
              "the program " + outcome.describe() + "; see the job's standard error");
    } else {
      change =
          StateChange.of(
              JobState.RUNNING,
              JobState.STAGING_OUT,
              "the program " + outcome.describe()); // a farm's detail counts its failed tasks
    }
    return change.withExitCode(outcome.reportedStatus()).withFailedTasks(outcome.failedTasks());
  }

  // ---- staging threads ------------------------------------------------------------------

  private void stageIn(P plan, JobState from) {
    try (JobLog scope = logFor(plan)) {
      stageInAsLogged(plan, from);
    }
  }

  private void stageInAsLogged(P plan, JobState from) {
    JobId id = plan.jobId();
    if (from == JobState.QUEUED && !plan.stagesIn()) {
      stageNothingIn(plan);
      return;
    }
    try {
      if (from == JobState.QUEUED
          && !untilStored(
              id,
              "the stage-in's start",
              JobState.STAGING_IN,
              () -> transition(id, JobState.QUEUED, JobState.STAGING_IN, "stage-in started"))) {
        return; // cancelled before its turn: nothing of it was staged, nothing to delete
      }
      pipeline.stageIn(plan, detail -> noteProgress(id, JobState.STAGING_IN, detail));
      if (untilStored(
          id,
          "the stage-in's end",
          JobState.STAGED,
          () -> transition(id, JobState.STAGING_IN, JobState.STAGED, "stage-in finished"))) {
        onControl(() -> staged(id));
      } else {
        terminated(plan); // cancelled or stopped as the stage-in ended
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // cancelled: the cancel recorded the new state
      terminated(plan);
    } catch (JobFailure | RuntimeException e) {
      terminated(plan); // before the final state is stored, as after a stage-out
      failBeforeRun(id, JobState.STAGING_IN, "stage-in failed: " + message(e));
    }
  }

  /**
   * The stage-in of a job with nothing to stage in (it makes the job directory), then STAGING_IN
   * and STAGED in one transaction: a crash before it leaves the job QUEUED, which a restarted
   * server stages in again, as it would a job left in STAGING_IN. Since losing that transaction in
   * a crash is harmless, it is not waited for on disk ({@link JobStore#transitionsLazily}).
   */
  private void stageNothingIn(P plan) {
    JobId id = plan.jobId();
    try {
      pipeline.stageIn(plan, detail -> {});
      // not waited for on disk: RUNNING, stored durably before the program starts, syncs it too
      if (untilStored(
          id,
          "the stage-in's end",
          JobState.STAGED,
          () ->
              transitionsLazily(
                  id,
                  List.of(
                      StateChange.of(JobState.QUEUED, JobState.STAGING_IN, "stage-in started"),
                      StateChange.of(
                          JobState.STAGING_IN, JobState.STAGED, "stage-in finished"))))) {
        onControl(() -> staged(id));
      } else {
        terminated(plan); // cancelled meanwhile
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // cancelled: the cancel recorded the new state
      terminated(plan);
    } catch (JobFailure | RuntimeException e) {
      terminated(plan);
      failBeforeRun(id, JobState.QUEUED, "stage-in failed: " + message(e));
    }
  }

  /**
   * Stage-out, then DeleteOnTermination before the final state is stored: a client that sees the
   * job final finds its marked files gone (a kill during stage-out stores KILLED at once and
   * deletes when the interrupted stage-out has stopped).
   */
  private void stageOut(P plan) {
    try (JobLog scope = logFor(plan)) {
      stageOutAsLogged(plan);
    }
  }

  private void stageOutAsLogged(P plan) {
    JobId id = plan.jobId();
    boolean deleted = false;
    try {
      StateChange end;
      try {
        pipeline.stageOut(plan, detail -> noteProgress(id, JobState.STAGING_OUT, detail));
        end = StateChange.of(JobState.STAGING_OUT, JobState.SUCCEEDED, "stage-out finished");
      } catch (JobFailure | RuntimeException e) {
        end =
            StateChange.of(
                JobState.STAGING_OUT, JobState.FAILED, "stage-out failed: " + message(e));
      }
      terminated(plan);
      deleted = true;
      StateChange last = end;
      untilStored(id, "the stage-out's end", last.to(), () -> transition(id, last));
      if (last.to() == JobState.SUCCEEDED) {
        FaultPoint.JOB_FINAL.reached();
      }
    } catch (InterruptedException e) {
      // killed (the kill recorded the new state), or the server stops with the store away (the
      // next server stages the job out again, skipping every step that committed)
      Thread.currentThread().interrupt();
      if (!deleted) {
        terminated(plan);
      }
    } finally {
      onControl(
          () -> {
            active.remove(id);
            admit(); // jobs may wait for this one
          });
    }
  }

  /**
   * The stage-out of a job with nothing to stage out, then its program's end (RUNNING to
   * STAGING_OUT, {@code exited}) and its final state in one transaction: one sync of the job store
   * instead of two. A crash before it leaves the job RUNNING, which a restarted server follows
   * again as it would have followed it a moment earlier (its end read again where it can be,
   * otherwise FAILED with the result unknown); a kill meanwhile stores KILLED, and this transaction
   * then finds the job no longer RUNNING and stores nothing.
   */
  private void stageNothingOut(P plan, StateChange exited) {
    try (JobLog scope = logFor(plan)) {
      JobId id = plan.jobId();
      boolean deleted = false;
      try {
        StateChange end;
        try {
          pipeline.stageOut(plan, detail -> {});
          end = StateChange.of(JobState.STAGING_OUT, JobState.SUCCEEDED, "stage-out finished");
        } catch (JobFailure | RuntimeException e) {
          end =
              StateChange.of(
                  JobState.STAGING_OUT, JobState.FAILED, "stage-out failed: " + message(e));
        }
        terminated(plan);
        deleted = true;
        StateChange last = end;
        if (untilStored(
                id, "its program's end", last.to(), () -> transitions(id, List.of(exited, last)))
            && last.to() == JobState.SUCCEEDED) {
          FaultPoint.JOB_FINAL.reached();
        }
      } catch (InterruptedException e) {
        // killed (the kill recorded the new state), or the server stops with the store away
        Thread.currentThread().interrupt();
        if (!deleted) {
          terminated(plan);
        }
      } finally {
        onControl(
            () -> {
              active.remove(id);
              admit(); // jobs may wait for this one
            });
      }
    }
  }

  private void failBeforeRun(JobId id, JobState from, String reason) {
    boolean failed;
    try {
      failed =
          untilStored(
              id,
              "the stage-in's failure",
              JobState.FAILED,
              () -> transition(id, from, JobState.FAILED, reason));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the server stops: the next server stages it in again
      return;
    }
    if (failed) {
      onControl(
          () -> {
            queue.withdraw(id);
            active.remove(id);
            admit(); // the failed job may have been the head everyone waited for
          });
    }
  }

  /** {@link UntilStored#write}, ending when the server stops (the next server takes over). */
  private boolean untilStored(
      JobId id, String what, JobState to, java.util.function.BooleanSupplier write)
      throws InterruptedException {
    return noted(id, UntilStored.write(store, id, what, to, write, () -> closing));
  }

  /**
   * Notes a staging phase's progress for status readers: a note the job store cannot take while it
   * is unavailable is dropped (the next one replaces it), never a reason to fail the staging.
   */
  private void noteProgress(JobId id, JobState phase, String detail) {
    try {
      store.updatePhaseDetail(id, phase, detail);
    } catch (JobStoreException e) {
      log.debug("job {}: progress note not stored: {}", id, e.getMessage());
    }
  }

  private static String message(Exception e) {
    return e instanceof JobFailure || e.getMessage() != null ? e.getMessage() : e.toString();
  }

  // ---- plumbing -------------------------------------------------------------------------

  // Every state change goes through these, which note the job for the gate (openGates).

  private boolean transition(JobId id, JobState from, JobState to, String reason) {
    return noted(id, store.transition(id, from, to, reason));
  }

  private boolean transition(JobId id, StateChange change) {
    return noted(id, store.transition(id, change));
  }

  private boolean transitions(JobId id, List<StateChange> changes) {
    return noted(id, store.transitions(id, changes));
  }

  private boolean transitionsLazily(JobId id, List<StateChange> changes) {
    return noted(id, store.transitionsLazily(id, changes));
  }

  /** A retried change found already stored (UntilStored#alreadyIn), noted as the change is. */
  private boolean alreadyIn(JobId id, JobState to) {
    return noted(id, UntilStored.alreadyIn(store, id, to));
  }

  private boolean noted(JobId id, boolean applied) {
    if (applied) {
      changedJobs.add(id);
    }
    return applied;
  }

  /** Lines logged meanwhile are about {@code plan}'s job and its owner. */
  private static JobLog logFor(JobPlan plan) {
    return JobLog.of(plan.jobId(), plan.owner());
  }

  /** As {@link #logFor(JobPlan)}, for an active job (on the control thread, which owns them). */
  private JobLog logFor(JobId id) {
    ActiveJob<P> a = active.get(id);
    return JobLog.of(id, a == null ? null : a.plan.owner());
  }

  private void onControl(Runnable task) {
    if (control.isShutdown()) {
      return;
    }
    Runnable carried = JobLog.carried(task); // the caller's job and user, if any
    control.execute(
        () -> {
          try {
            carried.run();
          } catch (RuntimeException e) {
            log.error("scheduler step failed", e);
          }
        });
  }

  private <T> T onControlAndWait(Callable<T> task) {
    try {
      return control.submit(JobLog.carried(task)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the scheduler", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
  }

  /**
   * Stops scheduling. Programs running as this server's children are terminated and their jobs
   * recorded as FAILED (a later server cannot re-attach to them); jobs of a batch system keep
   * running and stay RUNNING, for the next server to follow; staging is interrupted and resumes at
   * the next start.
   */
  @Override
  public void close() throws InterruptedException {
    closing = true;
    int dropped = storeRetries.shutdownNow().size();
    if (dropped > 0) {
      // each job is left as the store last took it: the next server's recovery picks it up there
      log.warn(
          "the server stops: {} job-store write(s) waiting for the store are dropped", dropped);
    }
    // Jobs of a batch system outlive the server: they are left running, still RUNNING in the
    // store, and the next server follows them again.
    List<Future<JobOutcome>> ending =
        onControlAndWait(
            () ->
                active.values().stream()
                    .filter(a -> a.running != null && !a.running.outlivesServer())
                    .map(
                        a -> {
                          a.running.terminate(killGrace);
                          return (Future<JobOutcome>) a.running.onExit();
                        })
                    .toList());
    for (Future<JobOutcome> f : ending) {
      try {
        f.get(killGrace.toMillis() + 5000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
        log.warn("a job's processes did not end in time at shutdown: {}", e.toString());
      }
    }
    stageInPool.shutdownNow();
    stageOutPool.shutdownNow();
    // Staging threads record their last transition as they stop: wait, so nothing touches the
    // job store after the caller closes it.
    stageInPool.awaitTermination(10, TimeUnit.SECONDS);
    stageOutPool.awaitTermination(10, TimeUnit.SECONDS);
    control.shutdown(); // lets the exit events queued above record their jobs
    control.awaitTermination(10, TimeUnit.SECONDS);
  }

  @SuppressWarnings(
      "ThreadPriorityCheck") // a hint only: the scheduler's bookkeeping yields to staging work, and
  // nothing depends on it for correctness
  private static ThreadFactory threads(String prefix, int priority) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      t.setPriority(priority);
      return t;
    };
  }
}
