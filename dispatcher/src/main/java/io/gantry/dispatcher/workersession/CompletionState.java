package io.gantry.dispatcher.workersession;

/** How a session's message ended. */
public enum CompletionState {
  /** A worker answered it; the output is its answer line. */
  ANSWERED,
  /** Its worker died while it ran, every time it was given out (1 + retries times). */
  LOST,
  /** The session broke (no worker left) before a worker answered it. */
  ABANDONED;

  /** The name clients see: lower case. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
