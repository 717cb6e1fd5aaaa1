package io.gantry.server.internal.service;

import io.gantry.jsdl.JsdlJob;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.Problem;
import io.gantry.server.internal.jobstore.JobConditions;
import io.gantry.server.internal.jobstore.JobDependency;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.server.internal.scheduler.MetaScheduler;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * How jobs follow one another, for the job-management service: dependencies and holds (what a job
 * waits for before its stage-in), and the retry of a failed stage-out. The meta-scheduler carries
 * them out; this class checks what a caller asks for and says why it is refused.
 */
public final class JobFlow {
  private final JobStore store;
  private final JobConditions conditions;
  private final MetaScheduler<?> scheduler;

  public JobFlow(JobStore store, JobConditions conditions, MetaScheduler<?> scheduler) {
    this.store = store;
    this.conditions = conditions;
    this.scheduler = scheduler;
  }

  /**
   * The job's dependencies as its description names them, each checked to name a job the caller can
   * see (another user's job reads as "no job", exactly as everywhere else); a problem for each that
   * does not.
   */
  public List<JobDependency> dependencies(
      JsdlJob job,
      Caller caller,
      Function<String, Optional<JobRecord>> visible,
      List<Problem> problems) {
    List<JobDependency> all = new ArrayList<>();
    collect(job.afterJobs(), JobDependency.Kind.AFTER, "After", caller, visible, problems, all);
    collect(
        job.afterAnyJobs(),
        JobDependency.Kind.AFTER_ANY,
        "AfterAny",
        caller,
        visible,
        problems,
        all);
    collect(
        job.afterStartJobs(),
        JobDependency.Kind.AFTER_START,
        "AfterStart",
        caller,
        visible,
        problems,
        all);
    return all;
  }

  private static void collect(
      List<String> ids,
      JobDependency.Kind kind,
      String element,
      Caller caller,
      Function<String, Optional<JobRecord>> visible,
      List<Problem> problems,
      List<JobDependency> into) {
    for (String id : ids) {
      Optional<JobRecord> other = visible.apply(id);
      if (other.isEmpty()) {
        problems.add(
            JobFlow.problem(
                "JobDefinition/JobDescription/Dependencies/" + element,
                "no job " + id + " for user " + caller.name()));
      } else {
        into.add(new JobDependency(other.get().id(), kind));
      }
    }
  }

  private static Problem problem(String path, String message) {
    Problem p = new Problem();
    p.severity = "ERROR";
    p.path = path;
    p.message = message;
    return p;
  }

  /** Stores a new job's conditions, before the job itself (see {@link JobConditions}). */
  public void recordAtSubmission(
      JobId id, List<JobDependency> dependencies, boolean held, Caller caller) {
    conditions.recordAtSubmission(id, dependencies, held ? caller.name() : null);
  }

  /** The status, with what the job waits for when the server keeps it back. */
  public JobStatusInfo withReason(JobStatusInfo status, JobRecord job) {
    if (job.state() == JobState.QUEUED) {
      status.reason = scheduler.waitReason(job.id()).orElse(null);
    }
    return status;
  }

  /** Holds a QUEUED job; a fault saying why when it is not QUEUED. */
  public JobRecord hold(JobRecord job, Caller caller) throws io.gantry.server.api.JobStateFault {
    MetaScheduler.Decision d =
        scheduler.hold(job.id(), caller.name(), () -> conditions.hold(job.id(), caller.name()));
    if (!d.applied()) {
      JobRecord now = d.job() == null ? job : d.job();
      Optional<String> holder =
          now.state() == JobState.QUEUED ? conditions.heldBy(job.id()) : Optional.empty();
      if (holder.isPresent()) {
        throw JobControl.stateFault(
            "job " + job.id() + " is held already (by " + holder.get() + ")", now);
      }
      throw JobControl.stateFault(
          now.state().isFinal()
              ? "job " + job.id() + " has already ended (" + now.state() + ")"
              : "job "
                  + job.id()
                  + " is "
                  + now.state()
                  + ": only a QUEUED job whose stage-in has not begun can be held; cancel it"
                  + " instead",
          now);
    }
    return d.job();
  }

  /** Lifts a job's hold; a fault when it is not held (or no longer QUEUED). */
  public JobRecord release(JobRecord job, Caller caller) throws io.gantry.server.api.JobStateFault {
    if (job.state() != JobState.QUEUED || !conditions.release(job.id())) {
      throw JobControl.stateFault(
          "job " + job.id() + " is not held (it is " + job.state() + ")", job);
    }
    org.slf4j.LoggerFactory.getLogger(JobFlow.class)
        .info("job {}: released by {}", job.id(), caller.name());
    return scheduler.reconsider(job.id());
  }

  /**
   * Retries the stage-out of a job whose program succeeded and whose stage-out failed; a fault
   * naming what is missing otherwise.
   */
  public JobRecord retryStageOut(JobRecord job, Optional<StoredPlan> plan, Caller caller)
      throws io.gantry.server.api.JobStateFault {
    String refusal = retryRefusal(job, plan);
    if (refusal != null) {
      throw JobControl.stateFault(refusal, job);
    }
    MetaScheduler.Decision d;
    try {
      d = scheduler.retryStageOut(job.id(), caller.name(), this::failedInStageOut);
    } catch (MetaScheduler.NotPlannedException e) {
      // e.g. a data source removed since: the user's to fix, in the planner's words
      throw JobControl.stateFault(
          "job " + job.id() + "'s stage-out cannot run again: " + e.getMessage(), job);
    }
    if (!d.applied()) {
      JobRecord now = d.job() == null ? job : d.job();
      throw JobControl.stateFault(
          "job " + job.id() + " is " + now.state() + ": its stage-out is not waiting for a retry",
          now);
    }
    return d.job();
  }

  private String retryRefusal(JobRecord job, Optional<StoredPlan> plan) {
    if (!failedInStageOut(job)) {
      return "job "
          + job.id()
          + " is "
          + job.state()
          + (job.state() == JobState.FAILED ? " but did not fail in its stage-out" : "")
          + ": only a job whose program succeeded and whose stage-out failed can have its"
          + " stage-out retried";
    }
    if (plan.isEmpty() || !Files.isDirectory(plan.get().jobDirectory())) {
      return "job "
          + job.id()
          + "'s directory has been removed (retention), so its results cannot be staged out"
          + " again";
    }
    return null;
  }

  /** FAILED, and the failure came in its stage-out: its program had succeeded. */
  private boolean failedInStageOut(JobRecord job) {
    return io.gantry.server.internal.scheduler.StageOutFailure.of(store, job);
  }
}
