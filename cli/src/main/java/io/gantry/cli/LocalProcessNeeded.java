package io.gantry.cli;

/**
 * Thrown in the command agent where a command reaches for what only the user's own process has: its
 * standard input, or its terminal (a password typed without echo, a certificate to trust). The
 * agent then answers that bin/gantry should run the command in a JVM of its own, which it does
 * before the command has written anything or spoken to the server with a credential.
 */
final class LocalProcessNeeded extends RuntimeException {
  private static final long serialVersionUID = 1L;

  LocalProcessNeeded(String what) {
    super(what + " is only at hand in the user's own process", null, false, false);
  }

  /** Whether {@code e} or one of its causes is a LocalProcessNeeded. */
  static boolean causedBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof LocalProcessNeeded) {
        return true;
      }
    }
    return false;
  }
}
