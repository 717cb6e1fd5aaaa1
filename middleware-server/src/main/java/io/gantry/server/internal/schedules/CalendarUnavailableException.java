package io.gantry.server.internal.schedules;

/** A holiday calendar that cannot be read and has never been read since the server started. */
final class CalendarUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CalendarUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
