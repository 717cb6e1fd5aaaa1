package io.gantry.server.internal.jobstore;

import java.util.Objects;

/**
 * A requested state change, applied only if the job is still in {@code from} (compare-and-set).
 *
 * @param from the state the caller believes the job is in
 * @param to the new state; must be a legal successor of {@code from}
 * @param reason for the audit trail; for FAILED also the job's failure reason, so write it for the
 *     user: what went wrong and what to change
 * @param exitCode the program's exit code, when this change learnt it; otherwise null
 * @param phaseDetail progress text for the new state, or null to clear it
 * @param failedTasks for a task farm whose tasks all became final: how many failed or were lost,
 *     when this change learnt it; otherwise null
 * @param usage what the program used, when this change learnt it (its end); otherwise null
 */
public record StateChange(
    JobState from,
    JobState to,
    String reason,
    Integer exitCode,
    String phaseDetail,
    Integer failedTasks,
    ProgramUsage usage) {

  public StateChange {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("a state change needs a reason for the audit trail");
    }
  }

  public StateChange(
      JobState from, JobState to, String reason, Integer exitCode, String phaseDetail) {
    this(from, to, reason, exitCode, phaseDetail, null, null);
  }

  public StateChange(
      JobState from,
      JobState to,
      String reason,
      Integer exitCode,
      String phaseDetail,
      Integer failedTasks) {
    this(from, to, reason, exitCode, phaseDetail, failedTasks, null);
  }

  public static StateChange of(JobState from, JobState to, String reason) {
    return new StateChange(from, to, reason, null, null);
  }

  public StateChange withExitCode(int code) {
    return new StateChange(from, to, reason, code, phaseDetail, failedTasks, usage);
  }

  /** The same change, recording a finished farm's count of failed tasks (null: not a farm). */
  public StateChange withFailedTasks(Integer count) {
    return new StateChange(from, to, reason, exitCode, phaseDetail, count, usage);
  }

  /** The same change, recording what the program used (null: nothing learnt). */
  public StateChange withUsage(ProgramUsage used) {
    return new StateChange(from, to, reason, exitCode, phaseDetail, failedTasks, used);
  }
}
