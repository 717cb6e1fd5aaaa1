package io.gantry.server.internal.risk;

/** A results data source could not be read: the message names it and says why. */
public final class RiskResultsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RiskResultsException(String message, Throwable cause) {
    super(message, cause);
  }
}
