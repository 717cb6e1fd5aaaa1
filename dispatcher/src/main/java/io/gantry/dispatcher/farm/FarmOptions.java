package io.gantry.dispatcher.farm;

import io.gantry.dispatcher.LauncherAdmission;
import io.gantry.dispatcher.LauncherHeartbeat;
import java.time.Duration;

/**
 * How a farm's dispatcher treats its tasks and the connections to its port.
 *
 * @param retries how many more times a task is handed out after its launcher disappeared while
 *     running it (a task that ran and failed is a result, not retried)
 * @param taskWallTime each task is stopped by its launcher after this long; null for no limit
 * @param outputLimit bytes of each task's standard output kept for its result (the last ones), at
 *     most 65536
 * @param helloTimeout a connection that has not said an accepted HELLO by then is closed
 * @param maxUnauthenticated the most connections that have not yet said an accepted HELLO at once;
 *     more wait in the kernel's listen backlog until one of these leaves
 * @param heartbeat how often each launcher sends a heartbeat; one silent for {@link
 *     LauncherHeartbeat#MISSED_BEATS} of these is taken for lost and its task runs again elsewhere
 */
public record FarmOptions(
    int retries,
    Duration taskWallTime,
    int outputLimit,
    Duration helloTimeout,
    int maxUnauthenticated,
    Duration heartbeat) {

  public static final int MAX_OUTPUT = 65536;

  public FarmOptions {
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be at least 0, was " + retries);
    }
    if (taskWallTime != null && (taskWallTime.isNegative() || taskWallTime.isZero())) {
      throw new IllegalArgumentException("a task's wall time must be positive");
    }
    if (outputLimit < 0 || outputLimit > MAX_OUTPUT) {
      throw new IllegalArgumentException(
          "the output limit must be 0 to " + MAX_OUTPUT + " bytes, was " + outputLimit);
    }
    LauncherAdmission.check(helloTimeout, maxUnauthenticated);
    LauncherHeartbeat.check(heartbeat);
  }

  /** These settings with the default heartbeat. */
  public FarmOptions(
      int retries,
      Duration taskWallTime,
      int outputLimit,
      Duration helloTimeout,
      int maxUnauthenticated) {
    this(
        retries,
        taskWallTime,
        outputLimit,
        helloTimeout,
        maxUnauthenticated,
        LauncherHeartbeat.DEFAULT_INTERVAL);
  }

  /** These options with another heartbeat interval (tests shorten it). */
  public FarmOptions withHeartbeat(Duration interval) {
    return new FarmOptions(
        retries, taskWallTime, outputLimit, helloTimeout, maxUnauthenticated, interval);
  }

  /** These settings with the default cap on connections that have not said HELLO. */
  public FarmOptions(int retries, Duration taskWallTime, int outputLimit, Duration helloTimeout) {
    this(
        retries,
        taskWallTime,
        outputLimit,
        helloTimeout,
        LauncherAdmission.DEFAULT_MAX_UNAUTHENTICATED);
  }

  /** Two retries, no wall time, 4 KiB of output, and the default HELLO time and cap. */
  public static FarmOptions defaults() {
    return new FarmOptions(2, null, 4096, LauncherAdmission.DEFAULT_HELLO_TIMEOUT);
  }
}
