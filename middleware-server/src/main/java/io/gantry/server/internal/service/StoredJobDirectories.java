package io.gantry.server.internal.service;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.staging.JobOutputs;
import java.util.Optional;

/**
 * Where the staging gateway finds an earlier job's files for a {@code gantry-job:} source: the
 * directory its stored plan names, and its state for a consumer that streams them while it runs
 * (docs/workflows.md). The submission has already checked that the job is the caller's and produces
 * the file; this only locates it.
 */
public final class StoredJobDirectories implements JobOutputs {
  private final JobStore store;

  public StoredJobDirectories(JobStore store) {
    this.store = store;
  }

  @Override
  public Optional<String> directory(String job) {
    return id(job).flatMap(store::plan).map(plan -> plan.jobDirectory().toString());
  }

  /** A job that is no longer known (removed from the store) reads as ended, not SUCCEEDED. */
  @Override
  public Progress progress(String job) {
    Optional<JobState> state = id(job).flatMap(store::find).map(JobRecord::state);
    if (state.isEmpty()) {
      return new Progress(true, false, "gone from the job store");
    }
    JobState s = state.get();
    return new Progress(s.isFinal(), s == JobState.SUCCEEDED, s.name());
  }

  private static Optional<JobId> id(String job) {
    try {
      return Optional.of(JobId.parse(job));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not a job id: no such job
    }
  }
}
