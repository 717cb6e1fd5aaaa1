package io.gantry.staging.internal.steps;

/**
 * Why one attempt of a transfer failed, and whether trying again can help. Each transport says
 * which of its failures may heal (a dropped connection) and which will not (a refused login, a
 * missing file); {@link RetriedAttempts} acts on it the same way for all.
 */
public abstract class AttemptFailure extends Exception {
  private static final long serialVersionUID = 1L;
  private final boolean retryable;

  protected AttemptFailure(String message, Throwable cause, boolean retryable) {
    super(message, cause);
    this.retryable = retryable;
  }

  public final boolean retryable() {
    return retryable;
  }
}
