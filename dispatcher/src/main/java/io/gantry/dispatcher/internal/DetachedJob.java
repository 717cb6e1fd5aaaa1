package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job under a {@code gantry-stepd}, followed by polling: the supervisor may be this server's
 * child or an orphan an earlier server left, so its end is learnt from its status file, never from
 * waiting on it. Every {@link #POLL_INTERVAL}: a status file means the end; a supervisor gone (or
 * its pid reused) without one means it died (SIGKILL by an operator, a reboot) and the job's end is
 * unknown. A supervisor that is this server's child also wakes the check the moment it exits
 * ({@link #checkNow}), after writing the status file: a short job's end is then seen at once, not
 * up to a poll interval later (which was most of a trivial job's overhead).
 */
final class DetachedJob implements RunningJob {
  static final Duration POLL_INTERVAL = Duration.ofMillis(250);

  /** The shell's "killed" status for an end the supervisor could not record. */
  private static final int UNKNOWN_END = 255;

  private static final Logger log = LoggerFactory.getLogger(DetachedJob.class);

  private final String jobId;
  private final long pid;
  private final long ticks;
  private final Path statusFile;
  private final Instant followedSince = Instant.now();
  private final CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();
  private ScheduledFuture<?> poll;
  private volatile boolean warned;

  DetachedJob(String jobId, long pid, long ticks, Path statusFile) {
    this.jobId = jobId;
    this.pid = pid;
    this.ticks = ticks;
    this.statusFile = statusFile;
  }

  synchronized void follow(ScheduledExecutorService poller, Duration interval) {
    long ms = interval.toMillis();
    poll = poller.scheduleWithFixedDelay(this::check, 0, ms, TimeUnit.MILLISECONDS);
  }

  /**
   * Checks now, off the poll's schedule: the supervisor, this server's child, has exited. Runs on
   * the poller's thread like every poll, so checks never overlap.
   */
  void checkNow(ScheduledExecutorService poller) {
    try {
      poller.execute(this::check);
    } catch (RejectedExecutionException e) {
      // the launcher is closed: the job is left for the next server to follow, as on any close
    }
  }

  private void check() {
    if (outcome.isDone()) {
      return; // a wake-up queued behind the poll that saw the end; the status file may be gone
    }
    Optional<JobOutcome> end = recorded();
    if (end.isEmpty() && !supervisorAlive()) {
      end = recorded(); // it may have written its status just before it exited: look once more
      if (end.isEmpty()) {
        log.warn(
            "job {}: its supervisor (pid {}) ended without recording the job's end", jobId, pid);
        end =
            Optional.of(
                new JobOutcome(
                    jobId,
                    UNKNOWN_END,
                    false,
                    false,
                    followedSince,
                    Instant.now(),
                    "its supervisor gantry-stepd (pid "
                        + pid
                        + ") ended without recording the job's end; it was killed or the"
                        + " host restarted"));
      }
    }
    end.ifPresent(this::ended);
  }

  /** The end in the status file; empty while there is none, or when it is not to be trusted. */
  private Optional<JobOutcome> recorded() {
    try {
      return StepdStatus.read(jobId, statusFile);
    } catch (IOException e) {
      if (!warned) {
        warned = true;
        log.warn("job {}: {}", jobId, e.getMessage());
      }
      return Optional.empty();
    }
  }

  private boolean supervisorAlive() {
    return ticks != 0 && ProcStat.isSame(pid, ticks);
  }

  private synchronized void ended(JobOutcome end) {
    if (poll != null) {
      poll.cancel(false);
    }
    outcome.complete(end);
  }

  @Override
  public String jobId() {
    return jobId;
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public CompletableFuture<JobOutcome> onExit() {
    return outcome.copy();
  }

  /**
   * SIGTERM to the supervisor: it stops the job with the grace period it was started with (the
   * server's kill grace), so {@code grace} here is not used.
   */
  @Override
  public void terminate(Duration grace) {
    if (supervisorAlive()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    }
  }

  @Override
  public boolean outlivesServer() {
    return true;
  }

  @Override
  public Optional<String> reattachReference() {
    return Optional.of(StepdSupervisor.REFERENCE_PREFIX + pid + ":" + ticks);
  }
}
