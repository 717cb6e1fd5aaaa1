package io.gantry.server.internal.service;

import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;

/** Maps job-store records to the API's message types. */
final class StatusMapper {
  private StatusMapper() {}

  static JobStatusInfo status(JobRecord job) {
    JobStatusInfo s = new JobStatusInfo();
    s.jobId = job.id().toString();
    s.name = job.name();
    s.owner = job.owner();
    s.state = JobStateName.valueOf(job.state().name());
    s.phase = job.phaseDetail();
    s.submitted = job.submittedAt();
    s.started = job.startedAt();
    s.finished = job.finishedAt();
    s.exitCode = job.exitCode();
    s.failureReason = job.failureReason();
    s.failedTasks = job.failedTasks();
    return s;
  }

  /** A job's status with its template values and where it came from. */
  static JobStatusInfo withOrigin(JobStatusInfo s, JobOrigin origin) {
    if (!origin.parameters().isEmpty()) {
      s.parameters = TemplateValues.toApi(origin.parameters());
    }
    s.resubmittedFrom = origin.resubmittedFrom() == null ? null : origin.resubmittedFrom().value();
    s.schedule = origin.scheduleName();
    s.scheduledFor = origin.scheduledFor();
    return s;
  }

  /** The answer for an id that names no job the caller may see. */
  static JobStatusInfo notFound(String jobId) {
    JobStatusInfo s = new JobStatusInfo();
    s.jobId = jobId;
    s.notFound = true;
    return s;
  }

  static StagedFileInfo stagedFile(DataMovement m, int index) {
    StagedFileInfo f = new StagedFileInfo();
    f.step = m.kind() + "[" + index + "]";
    boolean out = DataMovement.STAGE_OUT.equals(m.phase());
    String remote = m.detail() == null ? m.source() : m.source() + ": " + m.detail();
    f.source = out ? m.file() : remote;
    f.target = out ? remote : m.file();
    f.rows = m.rows() < 0 ? null : m.rows(); // a plain file transfer has no rows
    f.bytes = m.bytes();
    f.checksum = m.sha256() == null ? null : "sha256:" + m.sha256();
    f.seconds = m.seconds();
    return f;
  }
}
