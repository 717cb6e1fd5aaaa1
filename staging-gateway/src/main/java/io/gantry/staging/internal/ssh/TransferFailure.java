package io.gantry.staging.internal.ssh;

import io.gantry.staging.internal.steps.AttemptFailure;

/**
 * Why a remote transfer attempt failed, and whether trying again can help: a dropped or refused
 * connection may heal; a rejected host key, a wrong password or a missing file will not.
 */
final class TransferFailure extends AttemptFailure {
  private static final long serialVersionUID = 1L;

  private TransferFailure(String message, Throwable cause, boolean retryable) {
    super(message, cause, retryable);
  }

  static TransferFailure retryable(String message, Throwable cause) {
    return new TransferFailure(message, cause, true);
  }

  static TransferFailure permanent(String message, Throwable cause) {
    return new TransferFailure(message, cause, false);
  }
}
