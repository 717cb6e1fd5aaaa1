package io.gantry.server.internal.scheduler;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.JobStoreException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A state change the server must record (a program's end, a stage-in's or stage-out's end), tried
 * again until the job store takes it. While the store is unavailable (its database restarting, a
 * connection pool with no connection to give) each try fails with {@link JobStoreException}; the
 * event it records has already happened and will not happen again, so giving up would leave the job
 * in its old state for good (docs/reliability.md, "The job store gone under a running job").
 *
 * <p>A write whose commit was lost with its connection may have been taken: a later try then finds
 * the job already moved, which counts as taken when the job is in the state the change leads to
 * (each of these changes has one writer, so nothing else moves the job there).
 */
final class UntilStored {
  private static final Logger log = LoggerFactory.getLogger(UntilStored.class);

  /** The first wait; each further wait doubles, up to {@link #LONGEST}. */
  private static final Duration FIRST = Duration.ofMillis(200);

  private static final Duration LONGEST = Duration.ofSeconds(5);

  private UntilStored() {}

  /** How long to wait before try {@code attempt + 1} (attempt 0 is the first try). */
  static Duration backoff(int attempt) {
    long millis = FIRST.toMillis() << Math.min(attempt, 10);
    return Duration.ofMillis(Math.min(millis, LONGEST.toMillis()));
  }

  /**
   * Runs {@code write} until the store takes it, waiting on this thread between tries: for the
   * staging threads, which have nothing else to do meanwhile. Logs the outage once and the recovery
   * once. Throws InterruptedException when the thread is interrupted (a kill, or the server
   * stopping: the next server finds the job as it was last stored).
   *
   * @param what the change, for the log ("the stage-out's end")
   * @param to the state the change leads to; null where a false answer is final
   * @param stopping whether the server stops: then the tries end as an interrupt would end them (a
   *     connection pool waiting for a connection may swallow the interrupt itself)
   */
  static boolean write(
      JobStore store,
      JobId id,
      String what,
      JobState to,
      BooleanSupplier write,
      BooleanSupplier stopping)
      throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      if (attempt > 0 && stopping.getAsBoolean()) {
        throw new InterruptedException("the server stops; job " + id + ": " + what + " not stored");
      }
      try {
        boolean taken = write.getAsBoolean() || (attempt > 0 && alreadyIn(store, id, to));
        if (attempt > 0) {
          log.info("job {}: {} is stored now that the job store is back", id, what);
        }
        return taken;
      } catch (JobStoreException e) {
        if (attempt == 0) {
          log.warn(
              "job {}: the job store did not take {} ({}); trying again until it does",
              id,
              what,
              e.getMessage());
        }
        Thread.sleep(backoff(attempt).toMillis());
      }
    }
  }

  /**
   * Whether the job is already in {@code to}: a change retried after its commit was lost with the
   * connection finds its own earlier try there.
   */
  static boolean alreadyIn(JobStore store, JobId id, JobState to) {
    return to != null && store.find(id).map(j -> j.state() == to).orElse(false);
  }
}
