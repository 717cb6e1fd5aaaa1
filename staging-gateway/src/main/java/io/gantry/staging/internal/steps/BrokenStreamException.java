package io.gantry.staging.internal.steps;

import java.io.IOException;

/**
 * The link carrying a step's stream broke (a cluster's SSH connection dropped mid-file): unlike
 * other I/O errors on the job directory's side, trying the whole step again from the start may heal
 * it, so {@link RetriedAttempts} retries it.
 */
public final class BrokenStreamException extends IOException {
  private static final long serialVersionUID = 1L;

  public BrokenStreamException(String message, Throwable cause) {
    super(message, cause);
  }
}
