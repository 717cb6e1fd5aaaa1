package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;

/**
 * One job on one line, for {@code status}, {@code wait}, {@code cancel} and {@code kill}: {@code ID
 * STATE submitted T [started T] [finished T] [exit N] [failed tasks: N] [phase: ...] [reason:
 * ...]}. Fields that are unknown are left out rather than shown empty, so the line stays short.
 */
final class StatusLine {
  private StatusLine() {}

  static String of(JobStatus job, StateColors colors) {
    StringBuilder line =
        new StringBuilder(job.getJobId())
            .append("  ")
            .append(colors.state(job.getState(), 11))
            .append("  submitted ")
            .append(Times.text(job.getSubmitted()));
    if (job.getStarted() != null) {
      line.append("  started ").append(Times.text(job.getStarted()));
    }
    if (job.getFinished() != null) {
      line.append("  finished ").append(Times.text(job.getFinished()));
    }
    if (job.getExitCode() != null) {
      line.append("  exit ").append(job.getExitCode());
    }
    if (job.getFailedTasks() != null && job.getFailedTasks() > 0) {
      line.append("  failed tasks: ").append(job.getFailedTasks()); // a farm that succeeded
    }
    if (job.getPhase() != null && !job.getPhase().isBlank()) {
      line.append("  phase: ").append(job.getPhase());
    }
    if (job.getReason() != null && !job.getReason().isBlank()) {
      line.append("  reason: ").append(job.getReason()); // what a QUEUED job waits for
    }
    if (job.getFailureReason() != null && !job.getFailureReason().isBlank()) {
      line.append("  reason: ").append(job.getFailureReason());
    }
    if (!job.getParameter().isEmpty()) {
      line.append("  parameters: ").append(ParameterValues.text(job.getParameter()));
    }
    if (job.getResubmittedFrom() != null) {
      line.append("  resubmission of ").append(job.getResubmittedFrom());
    }
    if (job.getSchedule() != null) {
      line.append("  schedule ")
          .append(job.getSchedule())
          .append(" for ")
          .append(Times.text(job.getScheduledFor()));
    }
    return line.toString();
  }
}
