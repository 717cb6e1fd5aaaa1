package io.gantry.web;

import io.gantry.server.api.JobStatusInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * One job as the pages show it: the API's status with times formatted for people (the server's time
 * zone, to the second), the state's CSS class and the template values the job was filled with.
 * Pages read records' components by name.
 */
public record JobRow(
    String id,
    String name,
    String owner,
    String state,
    String stateClass,
    String phase,
    String submitted,
    String started,
    String finished,
    Integer exitCode,
    String failureReason,
    boolean finalState,
    String waitingFor,
    String parameters) {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  static JobRow of(JobStatusInfo s) {
    String state = s.state.name();
    boolean done =
        switch (s.state) {
          case SUCCEEDED, FAILED, CANCELLED, KILLED -> true;
          default -> false;
        };
    return new JobRow(
        s.jobId,
        s.name == null ? "" : s.name,
        s.owner,
        state,
        stateClass(state),
        s.phase == null ? "" : s.phase,
        time(s.submitted),
        time(s.started),
        time(s.finished),
        s.exitCode,
        s.failureReason == null ? "" : s.failureReason,
        done,
        s.reason == null ? "" : s.reason,
        values(s));
  }

  /**
   * The template values the job was filled with, {@code name=value} by spaces (its business date,
   * node, ...: what tells runs of one template apart); empty for a job without values.
   */
  static String values(JobStatusInfo s) {
    if (s.parameters == null) {
      return "";
    }
    return String.join(" ", s.parameters.stream().map(p -> p.name + "=" + p.value).toList());
  }

  /** Held by a user (Slurm's JobHeldUser): the page offers to release it. */
  public boolean held() {
    return waitingFor.startsWith("JobHeldUser");
  }

  /** The program succeeded and the stage-out failed: the page offers to retry the stage-out. */
  public boolean stageOutFailed() {
    return state.equals("FAILED") && failureReason.startsWith("stage-out failed");
  }

  /** The CSS class of a state's badge: {@code state-staging-in}. */
  static String stateClass(String state) {
    return "state-" + state.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  static String time(Instant t) {
    return t == null ? "" : TIME.format(t);
  }
}
