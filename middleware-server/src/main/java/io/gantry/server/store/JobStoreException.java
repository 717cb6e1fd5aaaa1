package io.gantry.server.store;

/** The job store's database failed; the message names the operation and the job. */
public final class JobStoreException extends RuntimeException {
  public JobStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
