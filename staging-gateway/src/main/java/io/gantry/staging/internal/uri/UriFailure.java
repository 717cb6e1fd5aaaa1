package io.gantry.staging.internal.uri;

import io.gantry.staging.internal.steps.AttemptFailure;

/**
 * Why a URI transfer attempt failed, and whether trying again can help: a refused or dropped
 * connection or a server's temporary error (HTTP 5xx, FTP 4xx) may heal; a missing file, a refused
 * login or a forbidden redirect will not.
 */
public final class UriFailure extends AttemptFailure {
  private static final long serialVersionUID = 1L;

  private UriFailure(String message, Throwable cause, boolean retryable) {
    super(message, cause, retryable);
  }

  public static UriFailure retryable(String message, Throwable cause) {
    return new UriFailure(message, cause, true);
  }

  public static UriFailure permanent(String message, Throwable cause) {
    return new UriFailure(message, cause, false);
  }
}
