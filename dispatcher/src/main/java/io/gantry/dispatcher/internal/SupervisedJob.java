package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One launched process and its descendants, watched until the end:
 *
 * <ol>
 *   <li>Every {@link #TRACKING_INTERVAL} the job's descendants are noted, so that a process that a
 *       rank left behind, re-parented to init once its parent exited, is still known as the job's.
 *   <li>A wall-time timer, if the job has a limit, terminates the job when it fires.
 *   <li>A termination (timer or request) takes the current tree plus every process noted so far,
 *       sends SIGTERM to all of it, and schedules SIGKILL for the survivors after the grace period.
 *   <li>When the root exits on its own, noted processes still alive are leftovers: they get the
 *       same SIGTERM, grace, SIGKILL. A job leaves nothing running behind.
 *   <li>The outcome completes once the root and every process signalled are gone, so "KILLED" or
 *       "ended" is only reported when nothing of the job is left running.
 * </ol>
 */
final class SupervisedJob implements RunningJob {
  static final Duration TRACKING_INTERVAL = Duration.ofSeconds(1);
  private static final long LATE_TERM_INTERVAL_MS = 100;
  private static final Logger log = LoggerFactory.getLogger(SupervisedJob.class);

  private final String jobId;
  private final Process process;
  private final Instant startedAt;
  private final ScheduledExecutorService scheduler;
  private final Duration cleanupGrace;
  private final int wrapperDepth;
  private final Set<ProcessHandle> noted = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<JobOutcome> outcome;
  private final List<ScheduledFuture<?>> timers = new ArrayList<>();
  private CompletableFuture<Void> treeGone;
  private volatile boolean wallTimeExceeded;
  private volatile boolean killed;

  /** The grace period ran out and SIGKILL was sent (guarded by this). */
  private boolean escalated;

  /**
   * @param cleanupGrace SIGTERM-to-SIGKILL grace for the wall-time limit and for leftovers
   */
  SupervisedJob(
      String jobId,
      Process process,
      Instant startedAt,
      ScheduledExecutorService scheduler,
      Duration cleanupGrace,
      int wrapperDepth) {
    this.wrapperDepth = wrapperDepth;
    this.jobId = jobId;
    this.process = process;
    this.startedAt = startedAt;
    this.scheduler = scheduler;
    this.cleanupGrace = cleanupGrace;
    this.outcome = process.onExit().thenCompose(p -> rootExited()).thenApply(v -> finish());
  }

  /** Starts watching; called once, right after the process started. */
  synchronized void supervise(Duration wallTimeLimit) {
    long interval = TRACKING_INTERVAL.toMillis();
    timers.add(
        scheduler.scheduleWithFixedDelay(
            this::noteDescendants, interval, interval, TimeUnit.MILLISECONDS));
    if (wallTimeLimit != null) {
      timers.add(
          scheduler.schedule(
              () -> stop(cleanupGrace, true), wallTimeLimit.toMillis(), TimeUnit.MILLISECONDS));
    }
    if (treeGone != null && treeGone.isDone()) {
      timers.forEach(t -> t.cancel(false)); // ended before we got here
    }
  }

  @Override
  public String jobId() {
    return jobId;
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public CompletableFuture<JobOutcome> onExit() {
    return outcome.copy();
  }

  @Override
  public void terminate(Duration grace) {
    stop(grace, false);
  }

  private void noteDescendants() {
    ProcessTree.jobProcesses(process.toHandle(), wrapperDepth).forEach(noted::add);
  }

  private synchronized void stop(Duration grace, boolean forWallTime) {
    if (treeGone != null || !process.isAlive()) {
      return; // already terminating, or ended
    }
    if (forWallTime) {
      wallTimeExceeded = true;
    } else {
      killed = true;
    }
    List<ProcessHandle> tree = ProcessTree.snapshot(process.toHandle());
    noted.stream().filter(p -> !tree.contains(p)).forEach(tree::add);
    treeGone = signal(tree, ProcessTree.wrappers(process.toHandle(), wrapperDepth), grace);
  }

  /** After the root's exit: wait for a termination in progress, or clean up leftovers. */
  private synchronized CompletableFuture<Void> rootExited() {
    if (treeGone == null) {
      List<ProcessHandle> leftovers = noted.stream().filter(ProcessHandle::isAlive).toList();
      if (!leftovers.isEmpty()) {
        log.warn(
            "job {}: {} process(es) still running after the job's root process ended;"
                + " stopping them",
            jobId,
            leftovers.size());
      }
      treeGone =
          leftovers.isEmpty()
              ? CompletableFuture.completedFuture(null)
              : signal(new ArrayList<>(leftovers), List.of(), cleanupGrace);
    }
    return treeGone;
  }

  /**
   * SIGTERM to the tree but its wrappers, SIGKILL to all of it after the grace period. Behind
   * wrappers, the job's first process may not exist yet when a job is stopped right after its
   * start: processes that appear during the grace period get their SIGTERM too, once each.
   */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // the action only cancels the kill timer and cannot fail
  private CompletableFuture<Void> signal(
      List<ProcessHandle> tree, List<ProcessHandle> wrappers, Duration grace) {
    CompletableFuture<Void> gone = ProcessTree.allExited(tree);
    Set<ProcessHandle> termed = ConcurrentHashMap.newKeySet();
    Runnable terminateNew =
        () -> {
          List<ProcessHandle> fresh =
              new ArrayList<>(tree.stream().filter(p -> !wrappers.contains(p)).toList());
          fresh.addAll(ProcessTree.jobProcesses(process.toHandle(), wrapperDepth));
          ProcessTree.terminate(fresh.stream().filter(termed::add).toList());
        };
    terminateNew.run();
    ScheduledFuture<?> late =
        wrapperDepth == 0
            ? null
            : scheduler.scheduleWithFixedDelay(
                terminateNew, LATE_TERM_INTERVAL_MS, LATE_TERM_INTERVAL_MS, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> kill =
        scheduler.schedule(
            () -> {
              synchronized (this) {
                // what ended the job is SIGKILL only if its root was still there to receive it
                escalated = process.isAlive();
              }
              ProcessTree.kill(tree, process.toHandle());
            },
            grace.toMillis(),
            TimeUnit.MILLISECONDS);
    CompletableFuture<Void> over = gone.thenCombine(process.onExit(), (a, b) -> null);
    over.thenRun(
        () -> {
          kill.cancel(false);
          if (late != null) {
            late.cancel(false);
          }
        });
    return over.thenApply(v -> null);
  }

  private synchronized JobOutcome finish() {
    timers.forEach(t -> t.cancel(false));
    return new JobOutcome(
        jobId,
        process.exitValue(),
        wallTimeExceeded,
        killed,
        startedAt,
        Instant.now(),
        treeGone == null || !(killed || wallTimeExceeded) ? 0 : escalated ? 9 : 15);
  }
}
