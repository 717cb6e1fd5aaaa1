package io.gantry.server.internal.workersession;

/** Opening a session, or a batch, would pass one of the worker-session limits. */
public final class WorkerSessionLimitException extends Exception {
  private static final long serialVersionUID = 1L;

  public WorkerSessionLimitException(String message) {
    super(message);
  }
}
