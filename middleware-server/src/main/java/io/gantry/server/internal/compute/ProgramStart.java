package io.gantry.server.internal.compute;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.slurm.BatchResources;
import io.gantry.server.internal.scheduler.JobFailure;
import java.nio.file.Path;

/**
 * A planned job's program, as a backend starts it.
 *
 * @param jobDirectory the job's directory (under {@link JobDirectories#root()})
 * @param launch the program, its output files and limits
 * @param batch its batch-system resources (none where the backend has no batch system)
 * @param owner the job owner's OS account, looked up when the program starts (the mapping may have
 *     changed since submission)
 * @param references stores the started job's reference, for {@link ComputeBackend#reattach}
 */
public record ProgramStart(
    String jobId,
    Path jobDirectory,
    LaunchSpec launch,
    BatchResources batch,
    AccountLookup owner,
    References references) {

  /** The owner's OS account. */
  @FunctionalInterface
  public interface AccountLookup {
    JobAccount account() throws JobFailure;
  }

  /** Where a started job's reference is stored. */
  @FunctionalInterface
  public interface References {
    /** Stores the reference durably before it returns. */
    void record(String reference);

    /**
     * Stores a reference that the backend also finds by the job's id alone ({@link
     * ComputeBackend#startedReference}: the job's starter recorded it before the program began), so
     * a server stopped before it is on disk loses nothing: stored without waiting for the disk.
     */
    default void recordRecoverable(String reference) {
      record(reference);
    }
  }
}
