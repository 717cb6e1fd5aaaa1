package io.gantry.dispatcher;

/**
 * A job could not be started at all: the executable is missing, the working directory does not
 * exist, the operating system refused to create the process. The message names the job and what to
 * fix; it never contains environment values.
 */
public final class LaunchException extends Exception {
  public LaunchException(String message) {
    super(message);
  }

  public LaunchException(String message, Throwable cause) {
    super(message, cause);
  }
}
