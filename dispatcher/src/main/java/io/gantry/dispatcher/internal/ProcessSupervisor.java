package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a prepared command for a job and supervises it: the code the mpirun and the plain POSIX
 * launcher share. One scheduler thread serves every job's wall-time timer and SIGKILL deadline;
 * those tasks only send signals, so one thread is plenty.
 */
public final class ProcessSupervisor implements JobStarter {
  private static final Logger log = LoggerFactory.getLogger(ProcessSupervisor.class);

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-dispatcher-timers");
            t.setDaemon(true);
            return t;
          });
  private int running;
  private boolean closed;

  /**
   * Starts {@code argv} with exactly {@code environment}, in the job's working directory, with
   * standard output and error going to the job's files and standard input empty.
   *
   * @param wallTimeGrace SIGTERM-to-SIGKILL grace used when the wall-time limit runs out, and for
   *     processes the job leaves behind
   * @param wrapperDepth how many levels of the tree, from the started process down, are the
   *     launcher's own wrappers (the sandbox) rather than the job's programs: they get no SIGTERM,
   *     only the final SIGKILL, so that the job's programs get their grace period
   */
  @Override
  @SuppressWarnings(
      "FutureReturnValueIgnored") // ended() cannot fail; the exit future itself is returned as the
  // job's handle
  public RunningJob start(
      LaunchSpec spec,
      List<String> argv,
      Map<String, String> environment,
      Duration wallTimeGrace,
      int wrapperDepth)
      throws LaunchException {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("job " + spec.jobId() + ": the launcher is closed");
      }
    }
    ProcessBuilder builder = JobProcess.builder(spec, argv, environment);
    Instant startedAt = Instant.now();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new LaunchException(
          "job " + spec.jobId() + ": could not start " + argv.get(0) + ": " + e.getMessage(), e);
    }
    // argv only: it never holds a secret (values travel in the environment, which is not logged)
    log.info("job {}: started pid {}: {}", spec.jobId(), process.pid(), argv);
    SupervisedJob job =
        new SupervisedJob(spec.jobId(), process, startedAt, scheduler, wallTimeGrace, wrapperDepth);
    synchronized (this) {
      running++;
    }
    job.onExit().whenComplete((outcome, error) -> ended());
    job.supervise(spec.wallTimeLimit());
    return job;
  }

  private synchronized void ended() {
    running--;
    if (closed && running == 0) {
      scheduler.shutdown();
    }
  }

  /**
   * Refuses new launches. Jobs already running stay supervised (wall time, terminate, SIGKILL
   * deadline) until they end; only then does the timer thread stop. It is a daemon thread and does
   * not hold the JVM open.
   */
  @Override
  public synchronized void close() {
    closed = true;
    if (running == 0) {
      scheduler.shutdown();
    }
  }
}
