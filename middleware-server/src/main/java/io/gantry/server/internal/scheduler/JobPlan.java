package io.gantry.server.internal.scheduler;

import io.gantry.server.internal.jobstore.JobId;

/** What the scheduler needs to know of a job's plan: whose it is and how many slots it takes. */
public interface JobPlan {
  JobId jobId();

  /** Compute slots (MPI processes) the job holds while it runs. */
  int slots();

  /**
   * False for a job with no program (JSDL without Application): it only stages data, never waits in
   * the compute queue, and goes from STAGED straight to STAGING_OUT.
   */
  default boolean runsProgram() {
    return true;
  }

  /**
   * False for a job with nothing to stage in: its stage-in only makes the job directory, so the
   * scheduler stores STAGING_IN and STAGED together afterwards, one sync of the job store instead
   * of two (a job recovered in QUEUED is staged in again, as one recovered in STAGING_IN is).
   */
  default boolean stagesIn() {
    return true;
  }

  /**
   * False for a job with nothing to stage out: the scheduler stores its program's end and its final
   * state together after the (empty) stage-out, one sync of the job store instead of two.
   */
  default boolean stagesOut() {
    return true;
  }

  /** Whose job it is: the fair share within a class is among owners. */
  default String owner() {
    return "";
  }

  /** The priority class the job asked for ({@code gx:Queue}); empty: the default class. */
  default java.util.Optional<String> queueClass() {
    return java.util.Optional.empty();
  }
}
