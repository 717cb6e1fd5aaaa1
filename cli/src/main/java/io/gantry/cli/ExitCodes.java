package io.gantry.cli;

/**
 * The exit codes of {@code gantry}, and their explanation that every command's --help ends with.
 */
final class ExitCodes {
  private ExitCodes() {}

  static final int OK = 0;
  static final int NEGATIVE = 1;
  static final int USAGE_OR_IO = 2;
  static final int SERVER = 3;
  static final int NOT_FOUND = 4;
  static final int TIMEOUT = 5;

  /**
   * The job SUCCEEDED, but it is a task farm and some of its tasks failed or were lost: not the
   * clean success a script chaining on {@code gantry wait} expects, and not a failed job either.
   */
  static final int TASKS_FAILED = 6;

  /**
   * Never an exit code of gantry: the command agent's answer that a command needs this process's
   * own standard input or terminal, so bin/gantry runs it in a JVM of its own instead.
   */
  static final int RUN_LOCALLY = 75;

  /** The exit codes as every command's --help lists them. */
  static final String HELP =
      "%nExit codes:%n"
          + "  0  success%n"
          + "  1  the job failed (FAILED, KILLED, CANCELLED), the document is invalid, or the%n"
          + "     server declined (e.g. cancel of a running job, a limit reached)%n"
          + "  2  usage error, or a local file cannot be read (or the login file is open%n"
          + "     to other users)%n"
          + "  3  the server cannot be reached, its certificate is not the pinned one, or it%n"
          + "     refused the credentials or the request%n"
          + "  4  no such job (it does not exist, or belongs to another user)%n"
          + "  5  wait --timeout ran out before the job ended%n"
          + "  6  the job SUCCEEDED, but it is a task farm and some of its tasks failed%n"
          + "     (wait, submit --wait, resubmit --wait)";
}
