package io.gantry.dispatcher;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A started job: its process id, its future outcome, and the means to stop it. */
public interface RunningJob {

  /** The job id from the {@link LaunchSpec}. */
  String jobId();

  /** Operating-system id of the root process ({@code mpirun}, or the program itself). */
  long pid();

  /**
   * Completes once the root process has exited and, if the job was being terminated, once every
   * process of the tree seen at termination time is gone. Never completes exceptionally.
   */
  CompletableFuture<JobOutcome> onExit();

  /**
   * Stops the whole process tree: SIGTERM to the root and every descendant now, SIGKILL to whatever
   * is still alive after {@code grace}. Calling it again, or after the job ended, does nothing.
   * Returns at once; wait on {@link #onExit()} for the end.
   */
  void terminate(Duration grace);

  /**
   * True when the job runs outside this server's process tree (a batch system's job): a server that
   * stops leaves it running, and the next server follows it again.
   */
  default boolean outlivesServer() {
    return false;
  }

  /**
   * What a later server process needs to follow this job again (e.g. {@link
   * DetachedJobs#reattach}), to be stored as soon as the job started; empty for a job that cannot
   * be followed again by this means.
   */
  default Optional<String> reattachReference() {
    return Optional.empty();
  }
}
