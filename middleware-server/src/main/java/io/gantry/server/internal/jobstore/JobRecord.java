package io.gantry.server.internal.jobstore;

import java.time.Instant;
import java.util.Objects;

/**
 * A job as stored, without its job description (read that with {@link
 * JobStore#jobDescription(JobId)}: lists of thousands of jobs need not carry every document).
 *
 * @param id the job's id
 * @param seq submission order: strictly increasing, the FCFS queue order and the paging key
 * @param owner the authenticated user who submitted the job
 * @param name the job's name from its description, or null
 * @param state the current state
 * @param submittedAt when the job was accepted
 * @param startedAt when its program started (entered RUNNING), or null
 * @param finishedAt when it reached a final state, or null
 * @param exitCode the program's exit code once known, or null
 * @param failureReason for FAILED jobs, the error a user can act on; for CANCELLED and KILLED jobs,
 *     who stopped them and how; otherwise null
 * @param phaseDetail progress within the current state ("staging 3 of 5 files"), or null
 * @param failedTasks for a task farm whose every task became final, how many of them failed or were
 *     lost; null for any other job
 */
public record JobRecord(
    JobId id,
    long seq,
    String owner,
    String name,
    JobState state,
    Instant submittedAt,
    Instant startedAt,
    Instant finishedAt,
    Integer exitCode,
    String failureReason,
    String phaseDetail,
    Integer failedTasks) {

  public JobRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(submittedAt, "submittedAt");
  }
}
