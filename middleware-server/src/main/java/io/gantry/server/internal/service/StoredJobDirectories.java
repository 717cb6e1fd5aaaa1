package io.gantry.server.internal.service;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.staging.JobOutputs;
import java.util.Optional;

/**
 * Where the staging gateway finds an earlier job's files for a {@code gantry-job:} source: the
 * directory its stored plan names (docs/workflows.md). The submission has already checked that the
 * job is the caller's and produces the file; this only locates it.
 */
public final class StoredJobDirectories implements JobOutputs {
  private final JobStore store;

  public StoredJobDirectories(JobStore store) {
    this.store = store;
  }

  @Override
  public Optional<String> directory(String job) {
    final JobId id;
    try {
      id = JobId.parse(job);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not a job id: no such job
    }
    return store.plan(id).map(plan -> plan.jobDirectory().toString());
  }
}
