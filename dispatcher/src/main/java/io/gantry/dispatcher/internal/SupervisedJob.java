package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One launched process and its descendants, watched until the end:
 *
 * <ol>
 *   <li>A wall-time timer, if the job has a limit, terminates the tree when it fires.
 *   <li>A termination (timer or request) snapshots the tree, sends SIGTERM to all of it, and
 *       schedules SIGKILL for the survivors after the grace period.
 *   <li>The outcome completes when the root has exited and, after a termination, when every
 *       process of the snapshot is gone, so "KILLED" is only reported once nothing is left running.
 * </ol>
 */
final class SupervisedJob implements RunningJob {
  private final String jobId;
  private final Process process;
  private final Instant startedAt;
  private final ScheduledExecutorService scheduler;
  private final CompletableFuture<JobOutcome> outcome;
  private volatile ScheduledFuture<?> wallTimer;
  private CompletableFuture<Void> treeGone = CompletableFuture.completedFuture(null);
  private volatile boolean terminating;
  private volatile boolean wallTimeExceeded;
  private volatile boolean killed;

  SupervisedJob(String jobId, Process process, Instant startedAt, ScheduledExecutorService scheduler) {
    this.jobId = jobId;
    this.process = process;
    this.startedAt = startedAt;
    this.scheduler = scheduler;
    this.outcome = process.onExit().thenCompose(p -> treeGone()).thenApply(v -> finish());
  }

  /** Arms the wall-time timer; called once, right after the process started. */
  void limitWallTime(Duration limit, Duration grace) {
    wallTimer = scheduler.schedule(() -> stop(grace, true), limit.toMillis(), TimeUnit.MILLISECONDS);
    if (outcome.isDone()) {
      wallTimer.cancel(false);
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

  private synchronized void stop(Duration grace, boolean forWallTime) {
    if (terminating || !process.isAlive()) {
      return;
    }
    terminating = true;
    if (forWallTime) {
      wallTimeExceeded = true;
    } else {
      killed = true;
    }
    List<ProcessHandle> tree = ProcessTree.snapshot(process.toHandle());
    treeGone = ProcessTree.allExited(tree);
    ProcessTree.terminate(tree);
    scheduler.schedule(
        () -> ProcessTree.kill(tree, process.toHandle()), grace.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Synchronized with {@link #stop}: a termination racing the root's exit is waited for. */
  private synchronized CompletableFuture<Void> treeGone() {
    return treeGone;
  }

  private JobOutcome finish() {
    ScheduledFuture<?> timer = wallTimer;
    if (timer != null) {
      timer.cancel(false);
    }
    return new JobOutcome(jobId, process.exitValue(), wallTimeExceeded, killed, startedAt, Instant.now());
  }
}
