package io.gantry.server.internal.scheduler;

import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.JobTransition;
import java.util.List;

/**
 * Whether a job FAILED in its stage-out, its program having succeeded: the one kind of failure
 * {@code retryStageOut} can still turn into SUCCEEDED, so the one an {@code after} dependency keeps
 * waiting on ({@link DependencyGate}).
 */
public final class StageOutFailure {
  private StageOutFailure() {}

  /** FAILED, and the last transition was STAGING_OUT to FAILED. */
  public static boolean of(JobStore store, JobRecord job) {
    if (job.state() != JobState.FAILED) {
      return false;
    }
    List<JobTransition> history = store.history(job.id());
    JobTransition last = history.isEmpty() ? null : history.get(history.size() - 1);
    return last != null && last.from() == JobState.STAGING_OUT && last.to() == JobState.FAILED;
  }
}
