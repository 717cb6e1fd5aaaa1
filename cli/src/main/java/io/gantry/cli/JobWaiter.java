package io.gantry.cli;

import io.gantry.cli.internal.soap.SoapFaultException;
import io.gantry.cli.soap.JobStatus;
import io.gantry.cli.soap.OutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;

/**
 * Waits for a job to reach a final state, for {@code wait} and {@code submit --wait}. Without a
 * progress display or {@code --follow} (--quiet, --json), it asks the server to answer when the job
 * ends ({@code waitForJob}, up to 20 s a call): the end is known when it happens, not up to a poll
 * later. Otherwise, and against a server without that operation, it polls {@code getJobStatus}
 * every 0.7 s, shows progress, and with {@code --follow} writes the job's standard output as it
 * grows.
 */
final class JobWaiter {
  static final Duration POLL_INTERVAL = Duration.ofMillis(700);

  /** The longest wait one waitForJob call asks for: the server's own bound. */
  static final int LONGEST_WAIT_SECONDS = 20;

  private final ServerConnection server;
  private final ProgressDisplay progress;
  private final PrintWriter followTo;

  /**
   * @param progress where progress goes, or null for none (--quiet, --json)
   * @param followTo where the job's standard output goes while waiting, or null not to follow
   */
  JobWaiter(ServerConnection server, ProgressDisplay progress, PrintWriter followTo) {
    this.server = server;
    this.progress = progress;
    this.followTo = followTo;
  }

  /**
   * @param timeout how long to wait at most, or null for as long as it takes
   * @return the job's final status
   * @throws CommandFailure with {@link ExitCodes#TIMEOUT} when the timeout runs out
   */
  JobStatus await(String jobId, Duration timeout) {
    long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
    OutputFollower follower =
        followTo == null ? null : new OutputFollower(server, jobId, OutputStream.STDOUT);
    boolean waitOnServer = progress == null && follower == null;
    try {
      while (true) {
        long asked = System.nanoTime();
        JobStatus job = null;
        if (waitOnServer) {
          job = waitForJob(jobId, deadline);
          waitOnServer = job != null;
        }
        if (job == null) {
          job = server.call(s -> s.getJobStatus(jobId));
        }
        boolean ended = JobStates.isFinal(job.getState());
        if (follower != null) {
          if (progress != null) {
            progress.clear();
          }
          // after the final state, read on until the server says the output is complete
          while (!follower.readAvailable(followTo) && ended) {
            pause();
          }
        }
        if (progress != null) {
          progress.show(job, elapsedSince(job));
        }
        if (ended) {
          return job;
        }
        if (System.nanoTime() >= deadline) {
          throw new CommandFailure(
              ExitCodes.TIMEOUT,
              "job "
                  + jobId
                  + " is still "
                  + job.getState().value()
                  + " after "
                  + Times.elapsed(timeout)
                  + " (--timeout)");
        }
        if (!waitOnServer || System.nanoTime() - asked < POLL_INTERVAL.toNanos() / 2) {
          pause(); // polling, or the server answered at once (it holds as many waits as it takes)
        }
      }
    } finally {
      if (progress != null) {
        progress.finish();
      }
    }
  }

  /**
   * The job once final or after up to {@link #LONGEST_WAIT_SECONDS} (never past {@code deadline});
   * null from a server that has no waitForJob (an older one), which is then polled.
   */
  private JobStatus waitForJob(String jobId, long deadline) {
    long left = deadline - System.nanoTime();
    int seconds = (int) Math.min(LONGEST_WAIT_SECONDS, left <= 0 ? 1 : left / 1_000_000_000L + 1);
    try {
      return server.call(s -> s.waitForJob(jobId, seconds));
    } catch (CommandFailure e) {
      if (e.getCause() instanceof SoapFaultException fault
          && fault.getMessage() != null
          && fault.getMessage().contains("waitForJob")) {
        return null; // "Unexpected wrapper element ...waitForJob": the server predates it
      }
      throw e;
    }
  }

  private static Duration elapsedSince(JobStatus job) {
    Instant submitted = Times.instant(job.getSubmitted());
    return submitted == null ? Duration.ZERO : Duration.between(submitted, Instant.now());
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure(ExitCodes.NEGATIVE, "interrupted while waiting for the job", e);
    }
  }
}
