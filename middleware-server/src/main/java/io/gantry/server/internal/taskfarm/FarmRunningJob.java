package io.gantry.server.internal.taskfarm;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.FarmProgress;
import io.gantry.dispatcher.farm.TaskResult;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A running task farm as the scheduler sees it: one job, whose outcome is the farm's, not the
 * launchers' exit status.
 *
 * <ol>
 *   <li>Every task final: the launchers are told DONE and exit; the results are written and the job
 *       succeeds, whatever its tasks' own exit statuses: the outcome counts the failed (and lost)
 *       tasks, which the job's status shows and {@code gantry wait} turns into its own exit code.
 *       What still runs 3 s after the last launcher hung up, or 30 s after DONE, is stopped, and
 *       the job succeeds all the same: its work is done. (Open MPI 4.1 started with {@code
 *       --enable-recovery} does not exit once a rank on another host has died, even when every
 *       other rank has exited since: so when a launcher was lost before DONE, what still runs is
 *       stopped as soon as the last launcher hung up, without waiting for mpirun.)
 *   <li>The launchers all ended with tasks left (the farm itself broke: mpirun or Slurm gave up,
 *       every node lost): the job fails, saying how many tasks were left.
 *   <li>A kill request stops the launchers; the job is KILLED as any other.
 * </ol>
 *
 * A farm outlives its server: what it finished is in its journal, so a restarted server starts its
 * launchers again and runs only what is left ({@link #outlivesServer()}).
 */
final class FarmRunningJob implements RunningJob {
  /** Launchers told DONE have this long to exit before they are stopped. */
  private static final Duration DONE_GRACE = Duration.ofSeconds(30);

  /** Once no launcher is connected after DONE, mpirun has this long to exit by itself. */
  private static final Duration AFTER_LAST_LAUNCHER = Duration.ofSeconds(3);

  private static final long POLL_MILLIS = 200;

  interface Results {
    /** Writes the result file; throws with a message the user can act on. */
    void write(Map<Long, TaskResult> results) throws java.io.IOException;
  }

  private final String jobId;
  private final FarmDispatcher dispatcher;
  private final RunningJob launchers;
  private final Duration grace;
  private final Results results;
  private final Runnable closed;
  private final CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();

  /** Set when the launchers were stopped after every task was final: not a kill. */
  private volatile boolean stoppedAfterDone;

  @SuppressWarnings(
      "FutureReturnValueIgnored") // both callbacks catch their own failures and complete outcome
  FarmRunningJob(
      String jobId,
      FarmDispatcher dispatcher,
      RunningJob launchers,
      Duration grace,
      Results results,
      Runnable closed) {
    this.jobId = jobId;
    this.dispatcher = dispatcher;
    this.launchers = launchers;
    this.grace = grace;
    this.results = results;
    this.closed = closed;
    dispatcher.finished().thenRun(() -> awaitLaunchersAfterDone(System.nanoTime(), -1));
    launchers.onExit().thenAccept(this::launchersEnded);
  }

  /**
   * Polls, once every task is final, until the launchers have exited; stops them once none has been
   * connected for {@link #AFTER_LAST_LAUNCHER} (at once where a launcher was lost before DONE: then
   * mpirun under {@code --enable-recovery} does not exit by itself), or {@link #DONE_GRACE} after
   * DONE.
   *
   * @param doneAt when the farm was complete ({@link System#nanoTime()})
   * @param noneSince since when no launcher has been connected, or -1
   */
  private void awaitLaunchersAfterDone(long doneAt, long noneSince) {
    if (launchers.onExit().isDone()) {
      return;
    }
    long now = System.nanoTime();
    FarmProgress progress = dispatcher.progress();
    long none = progress.launchers() == 0 ? (noneSince < 0 ? now : noneSince) : -1;
    if (now - doneAt >= DONE_GRACE.toNanos()
        || (none >= 0 && (progress.lost() > 0 || now - none >= AFTER_LAST_LAUNCHER.toNanos()))) {
      stoppedAfterDone = true;
      launchers.terminate(grace);
      return;
    }
    CompletableFuture.delayedExecutor(POLL_MILLIS, TimeUnit.MILLISECONDS)
        .execute(() -> awaitLaunchersAfterDone(doneAt, none));
  }

  private void launchersEnded(JobOutcome inner) {
    try {
      Map<Long, TaskResult> done =
          dispatcher.finished().isDone() && !dispatcher.finished().isCompletedExceptionally()
              ? dispatcher.finished().join()
              : null;
      int total = dispatcher.progress().total();
      int left = total - dispatcher.progress().finished();
      close();
      if (done == null || (inner.killed() && !stoppedAfterDone)) {
        String detail =
            "the launchers ended with "
                + left
                + " of "
                + total
                + " tasks unfinished"
                + (inner.detail() == null ? "" : "; " + inner.detail());
        outcome.complete(
            new JobOutcome(
                    jobId,
                    inner.exitStatus() == 0 ? 1 : inner.exitStatus(),
                    inner.wallTimeExceeded(),
                    inner.killed(),
                    inner.startedAt(),
                    inner.endedAt(),
                    inner.stopSignal(),
                    detail)
                .withUsage(new JobOutcome.Usage(inner.usage().cpuTime(), total)));
        return;
      }
      long failed = done.values().stream().filter(r -> !r.succeeded()).count();
      try {
        results.write(done);
      } catch (java.io.IOException | RuntimeException e) {
        outcome.complete(
            new JobOutcome(
                jobId,
                1,
                false,
                false,
                inner.startedAt(),
                inner.endedAt(),
                0,
                "every task is final, but the result file could not be written: "
                    + e.getMessage()));
        return;
      }
      outcome.complete(
          new JobOutcome(
              jobId,
              0,
              false,
              false,
              inner.startedAt(),
              inner.endedAt(),
              0,
              "farm: "
                  + done.size()
                  + " tasks final, "
                  + (done.size() - failed)
                  + " succeeded, "
                  + failed
                  + " failed",
              (int) failed,
              // the launchers' CPU time is the tasks' (they run under them), counted by the
              // supervisor; the farm knows how many tasks there were
              new JobOutcome.Usage(inner.usage().cpuTime(), total)));
    } catch (RuntimeException e) {
      outcome.complete(
          new JobOutcome(
              jobId, 1, false, false, inner.startedAt(), inner.endedAt(), 0, e.toString()));
    }
  }

  private void close() {
    try {
      dispatcher.close();
    } catch (java.io.IOException e) {
      org.slf4j.LoggerFactory.getLogger(FarmRunningJob.class)
          .warn("job {}: closing the farm's journal: {}", jobId, e.toString());
    } finally {
      closed.run();
    }
  }

  @Override
  public String jobId() {
    return jobId;
  }

  @Override
  public long pid() {
    return launchers.pid();
  }

  @Override
  public CompletableFuture<JobOutcome> onExit() {
    return outcome;
  }

  @Override
  public void terminate(Duration grace) {
    launchers.terminate(grace);
  }

  /** Its finished tasks are in the journal: a restarted server resumes it. */
  @Override
  public boolean outlivesServer() {
    return true;
  }

  Duration grace() {
    return grace;
  }
}
