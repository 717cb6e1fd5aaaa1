package io.gantry.dispatcher.workersession;

/** A batch would take the session past its limit of held messages, or the session is over. */
public final class SessionFullException extends Exception {
  private static final long serialVersionUID = 1L;

  public SessionFullException(String message) {
    super(message);
  }
}
