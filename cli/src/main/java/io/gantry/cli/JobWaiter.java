package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import io.gantry.cli.soap.OutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;

/**
 * Waits for a job to reach a final state, for {@code wait} and {@code submit --wait}: polls {@code
 * getJobStatus}, shows progress, and with {@code --follow} writes the job's standard output as it
 * grows. Polling, not a callback: the SOAP API is request/response only, and a poll every 0.7 s
 * costs the server one small query.
 */
final class JobWaiter {
  static final Duration POLL_INTERVAL = Duration.ofMillis(700);

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
    try {
      while (true) {
        JobStatus job = server.call(s -> s.getJobStatus(jobId));
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
        pause();
      }
    } finally {
      if (progress != null) {
        progress.finish();
      }
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
