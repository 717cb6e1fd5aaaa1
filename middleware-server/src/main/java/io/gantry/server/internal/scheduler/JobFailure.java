package io.gantry.server.internal.scheduler;

/** A job phase failed; the message is the failure reason the user sees. */
public final class JobFailure extends Exception {
  private static final long serialVersionUID = 1L;

  public JobFailure(String message) {
    super(message);
  }

  public JobFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
