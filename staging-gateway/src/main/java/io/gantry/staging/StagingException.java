package io.gantry.staging;

/**
 * A staging step failed. The message says which step (statement or transfer), on which data source
 * or host, and what went wrong (the database's or server's own message), and never contains a
 * password. No output of the failed step exists under its final name.
 */
public class StagingException extends Exception {
  private final String step;

  public StagingException(String step, String message, Throwable cause) {
    super(step + ": " + message, cause);
    this.step = step;
  }

  public StagingException(String step, String message) {
    this(step, message, null);
  }

  /** The failed step's label, e.g. {@code SQL extract to positions.csv.gz (group 2)}. */
  public String step() {
    return step;
  }
}
