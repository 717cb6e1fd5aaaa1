package io.gantry.server.internal.jobstore;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where a job is in its life. The happy path is {@code QUEUED -> STAGING_IN -> STAGED -> RUNNING ->
 * STAGING_OUT -> SUCCEEDED}; any state that is not final may also end in FAILED, and a job is
 * CANCELLED if it is removed before its program started, KILLED if it is stopped once its program
 * started (while running or staging out). A job without a program (staging only) skips RUNNING:
 * {@code STAGED -> STAGING_OUT}.
 */
public enum JobState {
  QUEUED,
  STAGING_IN,
  STAGED,
  RUNNING,
  STAGING_OUT,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  KILLED;

  /**
   * A job in a final state has ended. Only one transition leaves one: FAILED back to STAGING_OUT,
   * when a user retries the failed stage-out of a job whose program succeeded.
   */
  public boolean isFinal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == KILLED;
  }

  /** The program has been started (or has run) in this state. */
  public boolean hasStartedProgram() {
    return this == RUNNING || this == STAGING_OUT || this == SUCCEEDED || this == KILLED;
  }

  /** The states this one may move to. */
  public Set<JobState> successors() {
    return switch (this) {
      case QUEUED -> EnumSet.of(STAGING_IN, FAILED, CANCELLED);
      case STAGING_IN -> EnumSet.of(STAGED, FAILED, CANCELLED);
      // STAGING_OUT straight from STAGED: a job that only stages data has no program to run
      case STAGED -> EnumSet.of(RUNNING, STAGING_OUT, FAILED, CANCELLED);
      case RUNNING -> EnumSet.of(STAGING_OUT, FAILED, KILLED);
      case STAGING_OUT -> EnumSet.of(SUCCEEDED, FAILED, KILLED);
      // the one way out of a final state: a job whose program succeeded and whose stage-out
      // failed may have its stage-out retried (the scheduler checks that it is such a job)
      case FAILED -> EnumSet.of(STAGING_OUT);
      case SUCCEEDED, CANCELLED, KILLED -> EnumSet.noneOf(JobState.class);
    };
  }

  public boolean canMoveTo(JobState next) {
    return successors().contains(next);
  }

  /** The states a server restart must look at: anything begun and not finished. */
  public static Set<JobState> unfinished() {
    return EnumSet.of(QUEUED, STAGING_IN, STAGED, RUNNING, STAGING_OUT);
  }
}
