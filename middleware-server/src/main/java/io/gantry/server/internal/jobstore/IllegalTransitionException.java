package io.gantry.server.internal.jobstore;

/** A state change the job lifecycle does not allow, e.g. SUCCEEDED -> RUNNING. */
public final class IllegalTransitionException extends IllegalStateException {
  public IllegalTransitionException(JobId job, JobState from, JobState to) {
    super(
        "job "
            + job
            + ": "
            + from
            + " -> "
            + to
            + " is not a legal transition; from "
            + from
            + " a job may only move to "
            + from.successors());
  }
}
