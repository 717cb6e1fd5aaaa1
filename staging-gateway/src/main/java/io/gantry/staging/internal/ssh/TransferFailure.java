package io.gantry.staging.internal.ssh;

/**
 * Why a remote transfer attempt failed, and whether trying again can help: a dropped or refused
 * connection may heal; a rejected host key, a wrong password or a missing file will not.
 */
final class TransferFailure extends Exception {
  private final boolean retryable;

  private TransferFailure(String message, Throwable cause, boolean retryable) {
    super(message, cause);
    this.retryable = retryable;
  }

  static TransferFailure retryable(String message, Throwable cause) {
    return new TransferFailure(message, cause, true);
  }

  static TransferFailure permanent(String message, Throwable cause) {
    return new TransferFailure(message, cause, false);
  }

  boolean retryable() {
    return retryable;
  }
}
