package io.gantry.dispatcher.farm;

import java.time.Duration;

/**
 * How a farm's dispatcher treats its tasks.
 *
 * @param retries how many more times a task is handed out after its launcher disappeared while
 *     running it (a task that ran and failed is a result, not retried)
 * @param taskWallTime each task is stopped by its launcher after this long; null for no limit
 * @param outputLimit bytes of each task's standard output kept for its result (the last ones), at
 *     most 65536
 * @param helloTimeout a connection that has not said HELLO by then is closed
 */
public record FarmOptions(
    int retries, Duration taskWallTime, int outputLimit, Duration helloTimeout) {

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
  }

  /** Two retries, no wall time, 4 KiB of output, 30 s to say HELLO. */
  public static FarmOptions defaults() {
    return new FarmOptions(2, null, 4096, Duration.ofSeconds(30));
  }
}
