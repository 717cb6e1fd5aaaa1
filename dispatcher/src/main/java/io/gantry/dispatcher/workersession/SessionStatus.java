package io.gantry.dispatcher.workersession;

/**
 * A session's dispatcher at one moment.
 *
 * @param state STARTING until the first worker runs, then OPEN; BROKEN when no worker is left
 *     (every message not yet answered is then ABANDONED); CLOSED once closed
 * @param workers workers running now
 * @param queued messages waiting for a worker
 * @param inFlight messages given to a worker, not yet answered
 * @param completed completions not yet taken
 * @param answered messages answered so far
 * @param failed messages LOST or ABANDONED so far
 * @param restarts times a worker was started again after it ended
 * @param problem why the session broke, or empty
 */
public record SessionStatus(
    State state,
    int workers,
    int queued,
    int inFlight,
    int completed,
    long answered,
    long failed,
    int restarts,
    String problem) {

  /** The life of a session. */
  public enum State {
    STARTING,
    OPEN,
    BROKEN,
    CLOSED;

    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
