package io.gantry.cli;

/**
 * Ends a command with a message for the user and one of the documented exit codes ({@link
 * ExitCodes}); the top-level handler prints the message, never a stack trace.
 */
final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  CommandFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  CommandFailure(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
