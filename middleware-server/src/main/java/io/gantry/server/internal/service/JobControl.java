package io.gantry.server.internal.service;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobList;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobPage;
import io.gantry.server.internal.jobstore.JobQuery;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.plan.JsdlJobPlan;
import io.gantry.server.internal.scheduler.MetaScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The job operations on jobs already stored: status, lists, cancel and kill, holds and releases,
 * retried stage-outs, results, audit and definition. Each answers about the caller's own jobs only
 * (every job for an administrator).
 */
public final class JobControl {
  private final JobStore store;
  private final MetaScheduler<JsdlJobPlan> scheduler;
  private final JobFlow flow;
  private final Duration killWait;
  private final VisibleJobs visible;
  private final JobOutputs outputs;
  private final JobWaits waits;

  /**
   * @param killGrace the kill grace period: a kill waits that long, and a margin, for the job's end
   */
  public JobControl(
      JobStore store,
      MetaScheduler<JsdlJobPlan> scheduler,
      JobFlow flow,
      Duration killGrace,
      VisibleJobs visible,
      JobOutputs outputs,
      JobWaits waits) {
    this.store = store;
    this.scheduler = scheduler;
    this.flow = flow;
    this.killWait = killGrace.plusSeconds(5);
    this.visible = visible;
    this.outputs = outputs;
    this.waits = waits;
  }

  public JobStatusInfo statusWithOrigin(String jobId, Caller caller) throws JobNotFoundFault {
    JobRecord job = visible.own(jobId, caller);
    return StatusMapper.withOrigin(status(job), store.origin(job.id()));
  }

  /**
   * The caller's job once it is final, or as it is when {@code seconds} (at most {@link
   * JobWaits#LONGEST}) have passed, or at once when the server has {@link JobWaits#DEFAULT_LIMIT}
   * waits already (see {@link JobWaits}). The answer is {@code getJobStatus}'s.
   */
  public JobStatusInfo waitForJob(String jobId, int seconds, Caller caller)
      throws JobNotFoundFault {
    VisibleJobs.checkedId(jobId); // a malformed id is the caller's error, not an unknown job
    // each read checks the caller's right again: the first read is the only one at the start
    Optional<JobRecord> last =
        waits.await(
            Duration.ofSeconds(Math.max(0, seconds)),
            () -> visible.find(jobId, caller),
            job -> job.isEmpty() || job.get().state().isFinal());
    if (last.isEmpty()) {
      return statusWithOrigin(jobId, caller); // unknown, foreign or removed: JobNotFound
    }
    return StatusMapper.withOrigin(status(last.get()), store.origin(last.get().id()));
  }

  public List<JobStatusInfo> statuses(List<String> jobIds, Caller caller) {
    List<String> ids = jobIds == null ? List.of() : jobIds;
    if (ids.size() > JobQuery.MAX_LIMIT) {
      throw new InvalidArgumentException(
          "jobId", "at most " + JobQuery.MAX_LIMIT + " ids per call, got " + ids.size());
    }
    for (String id : ids) {
      VisibleJobs.checkedId(id);
    }
    // one answer per id asked, in order: a client can zip them; unknown and foreign ids look alike
    List<JobStatusInfo> result = new ArrayList<>();
    for (String id : ids) {
      result.add(
          visible.find(id, caller).map(this::status).orElseGet(() -> StatusMapper.notFound(id)));
    }
    return result;
  }

  public JobList list(
      List<JobStateName> states, int offset, int limit, boolean allUsers, Caller caller)
      throws AccessDeniedFault {
    if (offset < 0) {
      throw new InvalidArgumentException("offset", "must be 0 or more, was " + offset);
    }
    if (limit < 1 || limit > JobQuery.MAX_LIMIT) {
      throw new InvalidArgumentException(
          "limit", "must be between 1 and " + JobQuery.MAX_LIMIT + ", was " + limit);
    }
    if (allUsers && !caller.admin()) {
      throw new AccessDeniedFault(
          "only administrators may list every user's jobs",
          new FaultDetail(
              "ACCESS_DENIED", "only administrators may list every user's jobs", null, null));
    }
    Set<JobState> wanted = EnumSet.noneOf(JobState.class);
    for (JobStateName s : states == null ? List.<JobStateName>of() : states) {
      wanted.add(JobState.valueOf(s.name()));
    }
    String owner = allUsers ? null : caller.name();
    JobPage page = store.newestFirst(owner, wanted, offset, limit);
    JobList list = new JobList();
    list.total = page.total();
    list.offset = offset;
    // each run's template values (business date, node, ...) tell its row from its neighbours'
    Map<JobId, Map<String, String>> values =
        store.parameters(page.jobs().stream().map(JobRecord::id).toList());
    for (JobRecord j : page.jobs()) {
      JobStatusInfo s = status(j);
      Map<String, String> v = values.get(j.id());
      if (v != null && !v.isEmpty()) {
        s.parameters = TemplateValues.toApi(v);
      }
      list.jobs.add(s);
    }
    return list;
  }

  public JobStatusInfo cancel(String jobId, Caller caller) throws JobNotFoundFault, JobStateFault {
    JobRecord job = visible.own(jobId, caller);
    MetaScheduler.Decision d = scheduler.cancel(job.id(), caller.name());
    if (!d.applied()) {
      JobRecord now = d.job() == null ? job : d.job();
      String why =
          now.state().isFinal()
              ? "job " + jobId + " has already ended (" + now.state() + ")"
              : "job " + jobId + " is " + now.state() + ": its program has started, use killJob";
      throw stateFault(why, now);
    }
    return status(d.job());
  }

  public JobStatusInfo kill(String jobId, Caller caller) throws JobNotFoundFault, JobStateFault {
    JobRecord job = visible.own(jobId, caller);
    MetaScheduler.Decision d = scheduler.kill(job.id(), caller.name());
    if (!d.applied()) {
      JobRecord now = d.job() == null ? job : d.job();
      String why =
          now.state().isFinal()
              ? "job " + jobId + " has already ended (" + now.state() + ")"
              : "job "
                  + jobId
                  + " is "
                  + now.state()
                  + ": its program has not started, use cancelJob";
      throw stateFault(why, now);
    }
    return status(awaitFinal(job.id()));
  }

  /** Waits for a killed job to reach its final state, up to the kill grace period and a margin. */
  private JobRecord awaitFinal(JobId id) {
    long deadline = System.nanoTime() + killWait.toNanos();
    JobRecord job = store.find(id).orElseThrow();
    while (!job.state().isFinal() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      job = store.find(id).orElseThrow();
    }
    return job;
  }

  public JobResults results(String jobId, Caller caller) throws JobNotFoundFault {
    JobRecord job = visible.own(jobId, caller);
    JobResults results = new JobResults();
    results.jobId = jobId;
    results.state = JobStateName.valueOf(job.state().name());
    int in = 0;
    int out = 0;
    for (DataMovement m : store.dataMovements(job.id())) {
      if (DataMovement.STAGE_IN.equals(m.phase())) {
        results.stagedIn.add(StatusMapper.stagedFile(m, ++in));
      } else {
        results.stagedOut.add(StatusMapper.stagedFile(m, ++out));
      }
    }
    return results;
  }

  public JobAudit audit(String jobId, Caller caller) throws JobNotFoundFault {
    JobRecord job = visible.own(jobId, caller);
    return AuditTrail.of(job, store.history(job.id()), store.dataMovements(job.id()));
  }

  public JobDocument definition(String jobId, Caller caller) throws JobNotFoundFault {
    JobRecord job = visible.own(jobId, caller);
    // the owner may resubmit it: their ENC(...) values decrypt for nobody else anyway
    boolean owner = job.owner().equals(caller.name());
    return new JobDocument(
        DefinitionRedactor.redacted(store.jobDescription(job.id()).orElseThrow(), owner),
        TemplateValues.toApi(store.origin(job.id()).parameters()));
  }

  /** The job's status, with what it waits for when the server keeps it back. */
  public JobStatusInfo status(JobRecord job) {
    return flow.withReason(StatusMapper.status(job), job);
  }

  public JobStatusInfo hold(String jobId, Caller caller) throws JobNotFoundFault, JobStateFault {
    return status(flow.hold(visible.own(jobId, caller), caller));
  }

  public JobStatusInfo release(String jobId, Caller caller) throws JobNotFoundFault, JobStateFault {
    return status(flow.release(visible.own(jobId, caller), caller));
  }

  public JobStatusInfo retryStageOut(String jobId, Caller caller)
      throws JobNotFoundFault, JobStateFault {
    JobRecord job = visible.own(jobId, caller);
    return status(flow.retryStageOut(job, outputs.planOf(job), caller));
  }

  public static JobStateFault stateFault(String message, JobRecord job) {
    return new JobStateFault(
        message,
        new FaultDetail(
            "JOB_STATE", message, job.id().toString(), JobStateName.valueOf(job.state().name())));
  }
}
