package io.gantry.cli;

import io.gantry.cli.soap.JobState;
import java.util.EnumSet;
import java.util.Set;

/** Facts about job states that the CLI acts on (design: "Job lifecycle"). */
final class JobStates {
  /** A job in one of these will not change again. */
  static final Set<JobState> FINAL =
      EnumSet.of(JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED, JobState.KILLED);

  private JobStates() {}

  static boolean isFinal(JobState state) {
    return FINAL.contains(state);
  }
}
