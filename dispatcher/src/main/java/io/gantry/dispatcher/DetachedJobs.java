package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.StepdSupervisor;
import java.util.Optional;

/**
 * Follows again the local jobs an earlier server process started under {@code gantry-stepd} ({@link
 * DetachedSupervision}), by the reference {@link RunningJob#reattachReference()} gave at launch.
 */
public final class DetachedJobs implements AutoCloseable {
  /** How every reference of a supervised local job starts. */
  public static final String REFERENCE_PREFIX = StepdSupervisor.REFERENCE_PREFIX;

  private final StepdSupervisor supervisor;

  public DetachedJobs(DetachedSupervision supervision) {
    this.supervisor = new StepdSupervisor(supervision);
  }

  /**
   * The job again, from wherever it now is: still running (followed to its end), or ended while no
   * server watched (its recorded outcome at once).
   *
   * @throws IllegalArgumentException when {@code reference} is not one of a supervised local job
   */
  public RunningJob reattach(String jobId, String reference) {
    return supervisor.reattach(jobId, reference);
  }

  /**
   * The reference of a job whose supervisor started but whose reference was not stored (the server
   * stopped in between), as the supervisor recorded it before the program could start; empty when
   * no supervisor of that job started.
   */
  public Optional<String> startedReference(String jobId) {
    return supervisor.startedReference(jobId);
  }

  /** Deletes the job's status file once its end is recorded elsewhere; nothing if there is none. */
  public void forget(String jobId) {
    supervisor.forget(jobId);
  }

  /** Stops following; the supervisors and their jobs run on. */
  @Override
  public void close() {
    supervisor.close();
  }
}
