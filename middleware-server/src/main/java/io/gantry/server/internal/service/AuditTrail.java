package io.gantry.server.internal.service;

import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobStateName;
import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobTransition;
import java.util.List;

/**
 * Builds a job's audit trail from the job store's append-only transition history and its data
 * movements. Each phase's movements are recorded when the phase ends, so they are listed at the
 * transition that ended it: stage-in at STAGING_IN -> STAGED, stage-out at STAGING_OUT -> SUCCEEDED
 * (or FAILED, with the steps that had committed).
 */
final class AuditTrail {
  private AuditTrail() {}

  static JobAudit of(JobRecord job, List<JobTransition> history, List<DataMovement> movements) {
    JobAudit audit = new JobAudit();
    audit.jobId = job.id().toString();
    audit.owner = job.owner();
    for (JobTransition t : history) {
      audit.entries.add(stateChange(t));
      String phase = phaseEndedBy(t);
      if (phase != null) {
        int index = 0;
        for (DataMovement m : movements) {
          if (m.phase().equals(phase)) {
            audit.entries.add(movement(t, m, ++index));
          }
        }
      }
    }
    return audit;
  }

  private static String phaseEndedBy(JobTransition t) {
    if (t.from() == JobState.STAGING_IN && t.to() == JobState.STAGED) {
      return DataMovement.STAGE_IN;
    }
    // a failed stage-out lists the steps that had committed before it failed: they stay in the
    // database
    if (t.from() == JobState.STAGING_OUT
        && (t.to() == JobState.SUCCEEDED || t.to() == JobState.FAILED)) {
      return DataMovement.STAGE_OUT;
    }
    return null;
  }

  private static AuditEntry stateChange(JobTransition t) {
    AuditEntry e = new AuditEntry();
    e.at = t.at();
    e.kind = "STATE_CHANGE";
    e.fromState = t.from() == null ? null : JobStateName.valueOf(t.from().name());
    e.toState = JobStateName.valueOf(t.to().name());
    e.text = t.reason();
    return e;
  }

  private static AuditEntry movement(JobTransition endOfPhase, DataMovement m, int index) {
    AuditEntry e = new AuditEntry();
    e.at = endOfPhase.at();
    e.kind = "DATA_MOVEMENT";
    e.movement = StatusMapper.stagedFile(m, index);
    String direction = DataMovement.STAGE_IN.equals(m.phase()) ? "stage-in" : "stage-out";
    e.text =
        direction
            + ": "
            + m.kind()
            + (m.rows() >= 0 ? ", " + m.rows() + " rows" : "")
            + ", "
            + m.bytes()
            + " bytes"
            + (m.skipped() ? " (already done by an earlier attempt)" : "");
    return e;
  }
}
