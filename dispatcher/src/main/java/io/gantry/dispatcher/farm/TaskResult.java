package io.gantry.dispatcher.farm;

import java.time.Instant;
import java.util.Objects;

/**
 * A task's final state: one row of the farm's result file.
 *
 * @param taskId the task
 * @param end how it ended
 * @param code exit status, signal number or errno, as {@code end} says
 * @param attempts how many times it was handed to a launcher (more than 1 after lost launchers)
 * @param launcherHost the host of the launcher that ran its last attempt ("" when none did)
 * @param start when its last attempt started
 * @param durationMicros how long its last attempt ran, fork to reaping
 * @param output the last bytes of its standard output (UTF-8, invalid bytes replaced)
 */
public record TaskResult(
    long taskId,
    TaskEnd end,
    int code,
    int attempts,
    String launcherHost,
    Instant start,
    long durationMicros,
    String output) {

  public TaskResult {
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(launcherHost, "launcherHost");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(output, "output");
  }

  /** Exited with status 0: the only success. */
  public boolean succeeded() {
    return end == TaskEnd.EXITED && code == 0;
  }
}
