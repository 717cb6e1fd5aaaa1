package io.gantry.server.internal.scheduler;

import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.jobstore.JobRecord;

/**
 * The three phases of a job, as the meta-scheduler drives them. The scheduler decides when; the
 * pipeline knows how (JSDL to staging plans and a launch spec, the job directory).
 *
 * <p>Each phase throws {@link JobFailure} with a message the user can act on; stage-in and
 * stage-out stop promptly when their thread is interrupted.
 */
public interface JobPipeline<P extends JobPlan> {

  /**
   * Builds the plan of a stored job from its description as submitted (used when the server
   * recovers jobs at start).
   */
  P plan(JobRecord job, String jobDescription) throws JobFailure;

  /** Stages the job's input into a clean job directory. */
  void stageIn(P plan, PhaseProgress progress) throws JobFailure, InterruptedException;

  /** Starts the job's program. */
  RunningJob launch(P plan) throws JobFailure;

  /**
   * Follows again a job whose program a previous server process started outside itself (e.g. a
   * Slurm job), by the reference the launch stored; empty when the program ran as a child of that
   * server and is lost with it.
   */
  default java.util.Optional<RunningJob> reattach(P plan, String computeRef) throws JobFailure {
    return java.util.Optional.empty();
  }

  /**
   * The reference of a RUNNING job whose program started but whose reference the previous server
   * did not store (it stopped in between), where the program's starter recorded it; empty when its
   * program never started or its fate cannot be known.
   */
  default java.util.Optional<String> startedReference(P plan) {
    return java.util.Optional.empty();
  }

  /** Stages the job's results out; running it twice must not duplicate anything. */
  void stageOut(P plan, PhaseProgress progress) throws JobFailure, InterruptedException;

  /**
   * Called once the job has reached its final state (succeeded, failed, killed, or cancelled after
   * its stage-in began), whatever the outcome, on a staging thread: GFD.56's DeleteOnTermination.
   * Must not throw; a failure is the pipeline's to log.
   */
  default void terminated(P plan) {}
}
