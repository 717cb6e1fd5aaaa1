package io.gantry.server.internal.jobstore;

import java.time.Instant;

/**
 * One entry of a job's audit trail.
 *
 * @param jobId the job
 * @param seq 1 for the submission, then one more for each change
 * @param from the state before, null for the submission itself
 * @param to the state after
 * @param at when the change was committed
 * @param reason why, in words for the job's owner and the operator
 */
public record JobTransition(
    JobId jobId, int seq, JobState from, JobState to, Instant at, String reason) {}
