package io.gantry.server.internal.jobstore;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a job was made from beyond its description: the values of its template's parameters, and
 * where it came from when it was not a plain submission.
 *
 * @param parameters name to value, in the template's order; empty for a document without parameters
 * @param resubmittedFrom the job it is a resubmission of, or null
 * @param scheduleId the schedule that submitted it, or null
 * @param scheduleName that schedule's name when it submitted the job, or null
 * @param scheduledFor the time the schedule submitted it for, or null
 * @param failedTasksOnly a resubmitted task farm that reruns only the failed or lost tasks of
 *     {@code resubmittedFrom}, carrying its succeeded tasks' rows over (docs/task-farms.md)
 */
public record JobOrigin(
    Map<String, String> parameters,
    JobId resubmittedFrom,
    String scheduleId,
    String scheduleName,
    Instant scheduledFor,
    boolean failedTasksOnly) {
  /** A plain submission of a document without parameters. */
  public static final JobOrigin NONE = new JobOrigin(Map.of(), null, null, null, null);

  public JobOrigin {
    Objects.requireNonNull(parameters, "parameters");
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    if (failedTasksOnly && resubmittedFrom == null) {
      throw new IllegalArgumentException("a rerun of failed tasks names the job it reruns");
    }
  }

  /** An origin that reruns every task of a farm (or is no farm's). */
  public JobOrigin(
      Map<String, String> parameters,
      JobId resubmittedFrom,
      String scheduleId,
      String scheduleName,
      Instant scheduledFor) {
    this(parameters, resubmittedFrom, scheduleId, scheduleName, scheduledFor, false);
  }

  /** A plain submission with these parameter values. */
  public static JobOrigin submitted(Map<String, String> parameters) {
    return new JobOrigin(parameters, null, null, null, null);
  }

  /** Whether it says more than nothing: values, or where the job came from. */
  public boolean isEmpty() {
    return parameters.isEmpty() && resubmittedFrom == null && scheduleId == null;
  }
}
