package io.gantry.server.internal.jobstore;

/** The job store's database failed; the message names the operation and the job. */
public final class JobStoreException extends RuntimeException {
  public JobStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
