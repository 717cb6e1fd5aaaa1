package io.gantry.server.internal.jobstore;

/** No job with this id is stored. */
public final class UnknownJobException extends RuntimeException {
  public UnknownJobException(JobId job) {
    super("no job " + job);
  }
}
