package io.gantry.dispatcher.workersession;

import io.gantry.dispatcher.LauncherAdmission;
import io.gantry.dispatcher.LauncherHeartbeat;
import java.time.Duration;

/**
 * How a session's dispatcher treats its workers, its messages and the connections to its port.
 *
 * @param workers how many workers (launchers) the session starts: at most this many launchers that
 *     know the secret are let in at once, a further one is refused
 * @param maxHeld the most messages submitted and not yet taken as completions (queued, in flight or
 *     completed); a batch that would go past it is refused whole
 * @param maxHeldBytes the most bytes the session holds for its client: the lines of messages not
 *     yet answered and the answers not yet taken. A batch that would go past it is refused whole;
 *     answers that go past it stop the session giving out messages until the client takes (the
 *     server's memory is bounded however fast the workers answer and however slowly it is read)
 * @param maxMessageBytes the longest message, and the longest answer kept (the rest of a longer
 *     answer line is cut off and the completion marked truncated), in bytes as sent on the worker's
 *     line (escaped UTF-8), at most {@link #MAX_MESSAGE_BYTES}
 * @param window the most messages a worker has been given and not answered: enough to keep a worker
 *     busy between two round trips, small enough that a HIGH message submitted later waits behind
 *     few NORMAL ones
 * @param retries how many more times a message goes out after the worker running it died
 * @param maxRestarts how many times, in all, the session starts a worker again after one ended;
 *     past it, a worker that ends is not replaced and the session has one worker fewer
 * @param helloTimeout a connection that has not said an accepted HELLO by then is closed
 * @param maxUnauthenticated the most connections that have not yet said an accepted HELLO at once;
 *     more wait in the kernel's listen backlog until one of these leaves
 * @param heartbeat how often each launcher sends a heartbeat; one silent for {@link
 *     LauncherHeartbeat#MISSED_BEATS} of these is taken for lost and its messages go back
 */
public record SessionOptions(
    int workers,
    int maxHeld,
    long maxHeldBytes,
    int maxMessageBytes,
    int window,
    int retries,
    int maxRestarts,
    Duration helloTimeout,
    int maxUnauthenticated,
    Duration heartbeat) {

  /** The longest line a launcher accepts (a quarter of its 4 MiB frame). */
  public static final int MAX_MESSAGE_BYTES = 1 << 20;

  /** Messages in flight per worker unless told otherwise. */
  public static final int DEFAULT_WINDOW = 256;

  public SessionOptions {
    if (workers < 1) {
      throw new IllegalArgumentException("a session needs at least one worker, was " + workers);
    }
    if (maxHeld < 1) {
      throw new IllegalArgumentException("maxHeld must be at least 1, was " + maxHeld);
    }
    if (maxHeldBytes < 1) {
      throw new IllegalArgumentException("maxHeldBytes must be at least 1, was " + maxHeldBytes);
    }
    if (maxMessageBytes < 1 || maxMessageBytes > MAX_MESSAGE_BYTES) {
      throw new IllegalArgumentException(
          "the message size limit must be 1 to " + MAX_MESSAGE_BYTES + ", was " + maxMessageBytes);
    }
    if (window < 1) {
      throw new IllegalArgumentException("the window must be at least 1, was " + window);
    }
    if (retries < 0 || maxRestarts < 0) {
      throw new IllegalArgumentException("retries and restarts must be at least 0");
    }
    LauncherAdmission.check(helloTimeout, maxUnauthenticated);
    LauncherHeartbeat.check(heartbeat);
  }

  /** These settings with the default heartbeat. */
  public SessionOptions(
      int workers,
      int maxHeld,
      long maxHeldBytes,
      int maxMessageBytes,
      int window,
      int retries,
      int maxRestarts,
      Duration helloTimeout,
      int maxUnauthenticated) {
    this(
        workers,
        maxHeld,
        maxHeldBytes,
        maxMessageBytes,
        window,
        retries,
        maxRestarts,
        helloTimeout,
        maxUnauthenticated,
        LauncherHeartbeat.DEFAULT_INTERVAL);
  }

  /** These options with another heartbeat interval (tests shorten it). */
  public SessionOptions withHeartbeat(Duration interval) {
    return new SessionOptions(
        workers,
        maxHeld,
        maxHeldBytes,
        maxMessageBytes,
        window,
        retries,
        maxRestarts,
        helloTimeout,
        maxUnauthenticated,
        interval);
  }

  /** These settings with the default cap on connections that have not said HELLO. */
  public SessionOptions(
      int workers,
      int maxHeld,
      long maxHeldBytes,
      int maxMessageBytes,
      int window,
      int retries,
      int maxRestarts,
      Duration helloTimeout) {
    this(
        workers,
        maxHeld,
        maxHeldBytes,
        maxMessageBytes,
        window,
        retries,
        maxRestarts,
        helloTimeout,
        LauncherAdmission.DEFAULT_MAX_UNAUTHENTICATED);
  }

  /** {@code workers} workers and the defaults of configuration.md, "Sessions". */
  public static SessionOptions defaults(int workers) {
    return new SessionOptions(
        workers,
        1_000_000,
        256L << 20,
        65536,
        DEFAULT_WINDOW,
        2,
        10,
        LauncherAdmission.DEFAULT_HELLO_TIMEOUT);
  }
}
