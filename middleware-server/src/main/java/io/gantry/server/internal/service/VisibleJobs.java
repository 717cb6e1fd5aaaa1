package io.gantry.server.internal.service;

import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStore;
import java.util.Optional;

/**
 * The jobs a caller may see: their own, every job for an administrator. One answer for "no such
 * job" and "not yours", so a caller cannot learn another user's job ids.
 */
public final class VisibleJobs {
  private final JobStore store;

  public VisibleJobs(JobStore store) {
    this.store = store;
  }

  /** The job, if it exists and the caller may see it; one fault for "no such" and "not yours". */
  public JobRecord own(String jobId, Caller caller) throws JobNotFoundFault {
    checkedId(jobId);
    return find(jobId, caller)
        .orElseThrow(
            () ->
                new JobNotFoundFault(
                    "no job " + jobId + " for user " + caller.name(),
                    new FaultDetail(
                        "JOB_NOT_FOUND",
                        "no job " + jobId + " for user " + caller.name(),
                        jobId,
                        null)));
  }

  /**
   * A missing or malformed id is the caller's mistake, told apart from a well-formed unknown one.
   */
  public static JobId checkedId(String jobId) {
    if (jobId == null || jobId.isEmpty()) {
      throw new InvalidArgumentException("jobId", "missing");
    }
    try {
      return JobId.parse(jobId);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(
          "jobId", "not a job id (32 characters a-z and 2-7, as submitJob returns them)");
    }
  }

  /** The job, if {@code jobId} names one the caller may see; empty for a malformed id too. */
  public Optional<JobRecord> find(String jobId, Caller caller) {
    JobId id;
    try {
      id = JobId.parse(jobId);
    } catch (IllegalArgumentException | NullPointerException e) {
      return Optional.empty();
    }
    return store.find(id).filter(job -> caller.mayAccess(job.owner()));
  }
}
