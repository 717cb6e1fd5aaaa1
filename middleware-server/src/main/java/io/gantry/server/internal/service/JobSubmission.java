package io.gantry.server.internal.service;

import io.gantry.jsdl.JobChain;
import io.gantry.jsdl.JobTemplate;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.JsdlWriter;
import io.gantry.jsdl.ParseResult;
import io.gantry.server.api.ApplicationInfo;
import io.gantry.server.api.ChainStage;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.ParameterValue;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ServerInfo;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.config.NamedApplication;
import io.gantry.server.internal.accounting.SubmissionQuotas;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.server.internal.jobstore.JobCharge;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.JobStoreException;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.server.internal.logging.JobLog;
import io.gantry.server.internal.plan.JobPlanner;
import io.gantry.server.internal.plan.JsdlJobPlan;
import io.gantry.server.internal.plan.StoredPlans;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.server.internal.scheduler.MetaScheduler;
import io.gantry.server.internal.scheduler.QueueClasses;
import io.gantry.server.internal.storagewatch.StorageWatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job operations that take a job description: validate, submit, resubmit, and a schedule's
 * submission as its owner. Validates with the same parser as {@code gantry validate}, plans the job
 * once, and records it in the job store before the scheduler sees it.
 */
public final class JobSubmission {
  private static final Logger log = LoggerFactory.getLogger(JobSubmission.class);

  private final JsdlParser parser;
  private final JobPlanner planner;
  private final JobStore store;
  private final MetaScheduler<JsdlJobPlan> scheduler;
  private final ServerInfo info;
  private final StorageWatch storage;
  private final JobFlow flow;
  private final VisibleJobs visible;
  private final QueueClasses classes;
  private final SubmissionQuotas quotas;

  private final ChainSubmission chains = new ChainSubmission(this);

  /** Holds submissions apart from a quota check to their job being stored. */
  private final Object quotaLock = new Object();

  public JobSubmission(
      JsdlParser parser,
      JobPlanner planner,
      JobStore store,
      MetaScheduler<JsdlJobPlan> scheduler,
      ServerInfo info,
      StorageWatch storage,
      JobFlow flow,
      VisibleJobs visible,
      QueueClasses classes,
      SubmissionQuotas quotas) {
    this.classes = classes;
    this.quotas = quotas;
    this.parser = parser;
    this.planner = planner;
    this.store = store;
    this.scheduler = scheduler;
    this.info = info;
    this.storage = storage;
    this.flow = flow;
    this.visible = visible;
  }

  /** submitJob: a job store failing between two checks of the storage watch is a storage fault. */
  public String submitJob(JobDocument jobDefinition, Caller caller)
      throws InvalidJobFault, LimitExceededFault {
    try {
      return submit(jobDefinition, caller, JobOrigin.NONE);
    } catch (JobStoreException e) {
      // A store failing between two checks of the storage watch: answer at once, check soon.
      storage.checkSoon();
      throw storageFault(
          storage.problem().orElse("the job store cannot be reached or written"),
          "the job was not accepted");
    }
  }

  /**
   * Checks and queues a job. {@code origin} says where it came from (a resubmission, a schedule);
   * its parameter values are those the job was filled with, whatever {@code origin} holds.
   */
  public String submit(JobDocument jobDefinition, Caller caller, JobOrigin origin)
      throws InvalidJobFault, LimitExceededFault {
    Checked checked = check(jobDefinition, caller, Map.of());
    if (!checked.result().valid) {
      throw new InvalidJobFault(
          "the job description is invalid: "
              + checked.result().problems.stream().filter(p -> p.severity.equals("ERROR")).count()
              + " problem(s)",
          checked.result());
    }
    // what is logged from here on is about this job
    try (JobLog scope = JobLog.of(checked.plan().jobId(), caller.name())) {
      return storeAll(List.of(checked), caller, origin).get(0);
    }
  }

  /**
   * Stores checked jobs, all in one transaction (a chain: all or none), then hands them to the
   * scheduler in that order; their ids.
   */
  List<String> storeAll(List<Checked> jobs, Caller caller, JobOrigin origin)
      throws LimitExceededFault {
    long unfinished = store.countUnfinished(caller.name());
    if (unfinished + jobs.size() > info.maxQueuedJobsPerUser) {
      String message =
          "user "
              + caller.name()
              + " already has "
              + unfinished
              + (jobs.size() > 1
                  ? " unfinished jobs and the chain "
                      + jobs.size()
                      + " more, above the "
                      + info.maxQueuedJobsPerUser
                      + " this server accepts"
                  : " unfinished jobs, the most this server accepts")
              + " (limits.queued-jobs-per-user); wait for some to end or cancel them";
      throw new LimitExceededFault(message, new FaultDetail("LIMIT_EXCEEDED", message, null, null));
    }
    requireStorage("the job was not accepted");
    List<JobStore.NewJob> rows = new ArrayList<>();
    for (Checked checked : jobs) {
      JsdlJob job = checked.job();
      JsdlJobPlan plan = checked.plan();
      String project = job.jobProjects().isEmpty() ? null : job.jobProjects().get(0).strip();
      // planned once, by check: the job is stored under the id it was planned for, with that plan
      // a template is kept as written, with its values beside it: definition, resubmission and a
      // restarted server fill it again exactly as at submission
      rows.add(
          new JobStore.NewJob(
              plan.jobId(),
              caller.name(),
              job.jobName().orElse(null),
              job.template().map(JobTemplate::source).orElseGet(() -> JsdlWriter.write(job)),
              StoredPlans.of(plan),
              new JobOrigin(
                  TemplateValues.filled(job),
                  origin.resubmittedFrom(),
                  origin.scheduleId(),
                  origin.scheduleName(),
                  origin.scheduledFor(),
                  origin.failedTasksOnly()),
              new JobCharge(project, plan.slots()),
              checked.dependencies(),
              job.heldAtSubmission() ? caller.name() : null));
    }
    List<JobRecord> records;
    // Only submissions a quota limits wait for each other: the others share the store's group
    // commit. Held by every submission, the lock made their commits and syncs run one at a time.
    if (rows.stream().anyMatch(row -> quotas.limit(caller.name(), row.charge().project()))) {
      synchronized (quotaLock) {
        for (JobStore.NewJob row : rows) {
          quotas.check(caller.name(), row.charge().project());
        }
        records = store(rows, caller);
      }
    } else {
      records = store(rows, caller);
    }
    for (JobRecord r : records) {
      log.info("job {}: submitted by {}", r.id(), caller.name());
    }
    // The store may have taken the job into a file deleted since the last check: acknowledge
    // only what a fresh check says is kept.
    if (storage.confirmStillThere().isPresent()) {
      for (JobRecord record : records) {
        try {
          store.transition(
              record.id(),
              JobState.QUEUED,
              JobState.FAILED,
              "the server's storage failed as the job was stored");
        } catch (RuntimeException e) {
          // the store is failing: the fault below is the answer either way
        }
      }
      requireStorage("the job was not accepted");
    }
    FaultPoint.JOB_STORED.reached();
    for (Checked checked : jobs) {
      if (checked.dependencies().isEmpty() && !checked.job().heldAtSubmission()) {
        scheduler.submittedWithoutConditions(checked.plan());
      } else {
        scheduler.submitted(checked.plan()); // answered once the gate has decided
      }
    }
    return records.stream().map(r -> r.id().toString()).toList();
  }

  /** One job in its transaction, or a chain's jobs all in one. */
  private List<JobRecord> store(List<JobStore.NewJob> rows, Caller caller) {
    if (rows.size() > 1) {
      return store.submitAll(rows);
    }
    JobStore.NewJob row = rows.get(0);
    flow.recordAtSubmission(row.id(), row.dependencies(), row.heldBy() != null, caller);
    return List.of(
        store.submit(
            row.id(),
            row.owner(),
            row.name(),
            row.jobDescription(),
            row.plan(),
            row.origin(),
            row.charge()));
  }

  /**
   * submitChain: the stages of a {@code gx:JobChain} document, checked and stored as one unit
   * (docs/workflows.md); each stage and its new job's id, in the order they were stored.
   */
  public List<ChainStage> submitChain(JobDocument chain, Caller caller)
      throws InvalidJobFault, LimitExceededFault {
    try {
      return chains.submit(chain, caller, JobOrigin.NONE);
    } catch (JobStoreException e) {
      storage.checkSoon();
      throw storageFault(
          storage.problem().orElse("the job store cannot be reached or written"),
          "the chain was not accepted");
    }
  }

  private static boolean isChain(JobDocument document) {
    return document != null && JobChain.isChain(document.getJobDefinition());
  }

  /** Refuses new work, as a SOAP fault, while the server's storage is failing. */
  private void requireStorage(String consequence) {
    storage
        .problem()
        .ifPresent(
            problem -> {
              throw storageFault(problem, consequence);
            });
  }

  private static StorageFailureException storageFault(String problem, String consequence) {
    return new StorageFailureException(
        "the server's storage is failing ("
            + problem
            + "); "
            + consequence
            + ". The server accepts new work again by itself once its storage is back.");
  }

  /** validateJob: the report of every check a submission makes, nothing stored. */
  public ValidationResult validate(JobDocument jobDefinition, Caller caller) {
    if (isChain(jobDefinition)) {
      return chains.validate(jobDefinition, caller);
    }
    return check(jobDefinition, caller, Map.of()).result();
  }

  /**
   * A check's report, and for a valid job its description and the plan made for it (under a fresh
   * id).
   */
  record Checked(
      ValidationResult result,
      JsdlJob job,
      JsdlJobPlan plan,
      List<io.gantry.server.internal.jobstore.JobDependency> dependencies) {}

  /**
   * A job planned by {@link #check} but not stored yet: an earlier stage of a chain, which a later
   * stage names by the id it will be stored under.
   */
  record Pending(JobRecord job, StoredPlan plan) {}

  /**
   * Schema and semantic checks, then what only this server knows (data sources, identities). A job
   * of {@code earlier} is seen as stored (QUEUED, with its plan) by the checks of what it waits for
   * and reads.
   */
  Checked check(JobDocument document, Caller caller, Map<JobId, Pending> earlier) {
    ValidationResult result = new ValidationResult();
    if (document == null || document.getJobDefinition() == null) {
      result.problems.add(
          problem("ERROR", 0, 0, "", "the message carries no JobDefinition element"));
      return new Checked(result, null, null, List.of());
    }
    if (JobChain.isChain(document.getJobDefinition())) {
      result.problems.add(
          problem(
              "ERROR",
              0,
              0,
              "JobChain",
              "this is a chain of jobs (gx:JobChain); submit it with submitChain (gantry submit"
                  + " does), which stores its stages as one unit"));
      return new Checked(result, null, null, List.of());
    }
    ParseResult parsed =
        parser.parse(document.getJobDefinition(), TemplateValues.of(document.getParameters()));
    for (io.gantry.jsdl.Problem p : parsed.report().problems()) {
      result.problems.add(
          problem(p.severity().name(), p.line(), p.column(), p.path(), p.message()));
    }
    JsdlJob job = parsed.isValid() ? parsed.validJob() : null;
    JsdlJobPlan plan = null;
    List<io.gantry.server.internal.jobstore.JobDependency> dependencies = List.of();
    if (job != null) {
      List<Problem> unknown = new ArrayList<>();
      dependencies =
          flow.dependencies(
              job, caller, id -> pending(earlier, id).or(() -> visible.find(id, caller)), unknown);
      // an earlier job's file as a Source: that job, that file, and waiting for it (workflows.md)
      unknown.addAll(
          new JobOutputSources(
                  id ->
                      earlier.containsKey(id) ? Optional.of(earlier.get(id).job()) : store.find(id),
                  producer ->
                      earlier.containsKey(producer.id())
                          ? Optional.of(earlier.get(producer.id()).plan())
                          : store.plan(producer.id()))
              .problems(caller.name(), job.stagingSteps(), dependencies));
      if (!unknown.isEmpty()) {
        result.problems.addAll(unknown);
        job = null;
      }
    }
    if (job != null) {
      // a data source or application this server does not offer: at its element, with a guess
      List<Problem> references = NamedReferences.check(parsed, job, caller.name(), planner);
      if (!references.isEmpty()) {
        result.problems.addAll(references);
        job = null;
      }
    }
    if (job != null) {
      // a job is charged to one project, named so that quota.project.PROJECT.* can name it
      Optional<String> refused = ProjectNames.problem(job.jobProjects());
      if (refused.isPresent()) {
        result.problems.add(
            problem(
                "ERROR",
                0,
                0,
                "JobDefinition/JobDescription/JobIdentification/JobProject",
                refused.get()));
        job = null;
      }
    }
    if (job != null) {
      // a class the server has not, or the caller may not use: at its element, naming the class
      Optional<String> refused = classes.refusal(job.queueClass(), caller.name(), caller.admin());
      if (refused.isPresent()) {
        result.problems.add(
            problem("ERROR", 0, 0, "JobDefinition/JobDescription/Queue", refused.get()));
        job = null;
      }
    }
    if (job != null) {
      try {
        plan = planner.plan(JobId.random(), caller.name(), job);
        if (plan.slots() > info.totalSlots) {
          throw new JobFailure(
              "the job asks for "
                  + plan.slots()
                  + " processes; this server has "
                  + info.totalSlots
                  + " compute slots (setting slots.total)");
        }
        planner.checkLaunchable(plan); // refused now, before queueing, if it could not start
        // checks before the computation: a wrong password fails the submission, not the job
        for (String problem : planner.connectionProblems(plan)) {
          result.problems.add(problem("ERROR", 0, 0, stagingPath(problem), problem));
          job = null;
        }
      } catch (JobFailure e) {
        result.problems.add(problem("ERROR", 0, 0, "JobDefinition", e.getMessage()));
        job = null;
      } catch (JobStoreException e) {
        throw e; // the server's storage, not the document: answered as a storage fault
      } catch (RuntimeException e) {
        // a document the checks above let through but the planner cannot handle: the caller
        // still gets an InvalidJob report, the exception text only the server's log
        String incident = UUID.randomUUID().toString();
        log.error("incident {}: planning a job that passed validation failed", incident, e);
        result.problems.add(
            problem(
                "ERROR",
                0,
                0,
                "JobDefinition",
                "the server cannot run this job as"
                    + " described (incident "
                    + incident
                    + "; the server's log has the details)"));
        job = null;
      }
    }
    result.valid = job != null;
    return new Checked(result, job, job == null ? null : plan, dependencies);
  }

  private static Optional<JobRecord> pending(Map<JobId, Pending> earlier, String id) {
    try {
      return Optional.ofNullable(earlier.get(JobId.parse(id))).map(Pending::job);
    } catch (IllegalArgumentException | NullPointerException e) {
      return Optional.empty();
    }
  }

  private static String stagingPath(String problem) {
    return "JobDefinition/JobDescription/"
        + (problem.startsWith("stage-in") ? "PreDataStaging" : "PostDataStaging");
  }

  private static Problem problem(
      String severity, int line, int column, String path, String message) {
    Problem p = new Problem();
    p.severity = severity;
    p.line = line;
    p.column = column;
    p.path = path;
    p.message = message;
    return p;
  }

  /** resubmitJob: the job's stored description and values, with {@code parameters} over them. */
  public String resubmit(String jobId, List<ParameterValue> parameters, Caller caller)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault {
    JobRecord original = visible.own(jobId, caller);
    Map<String, String> values = new LinkedHashMap<>(store.origin(original.id()).parameters());
    values.putAll(TemplateValues.of(parameters));
    String description = store.jobDescription(original.id()).orElseThrow();
    // the new job is the original owner's: its encrypted passwords are bound to that user
    return submit(
        StoredDocuments.document(description, values),
        caller.name().equals(original.owner()) ? caller : new Caller(original.owner(), false),
        new JobOrigin(Map.of(), original.id(), null, null, null));
  }

  /**
   * resubmitFailedTasks: a task farm that ended, again with its stored description and values; its
   * farm carries the tasks that succeeded over and runs the others (docs/task-farms.md).
   */
  public String resubmitFailedTasks(String jobId, Caller caller)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault, JobStateFault {
    JobRecord original = visible.own(jobId, caller);
    if (!original.state().isFinal()) {
      throw JobControl.stateFault(
          "job " + jobId + " is " + original.state() + "; only a farm that ended can be rerun",
          original);
    }
    Map<String, String> values = store.origin(original.id()).parameters();
    String description = store.jobDescription(original.id()).orElseThrow();
    ParseResult parsed = parser.parse(description, values);
    if (!parsed.isValid() || parsed.validJob().taskFarm().isEmpty()) {
      throw new InvalidArgumentException(
          "jobId", "job " + jobId + " is no task farm; resubmit it whole (resubmitJob)");
    }
    return submit(
        StoredDocuments.document(description, values),
        caller.name().equals(original.owner()) ? caller : new Caller(original.owner(), false),
        new JobOrigin(Map.of(), original.id(), null, null, null, true));
  }

  /**
   * Submits a schedule's job for one of its times, as the schedule's owner; for a chain, all its
   * stages, and the id of the last one stored (the chain's end, from which resubmitChain finds the
   * rest).
   */
  public String submitScheduled(
      String owner, String description, Map<String, String> values, JobOrigin origin)
      throws InvalidJobFault, LimitExceededFault {
    JobDocument document = StoredDocuments.document(description, values);
    if (isChain(document)) {
      List<ChainStage> stages = chains.submit(document, new Caller(owner, false), origin);
      return stages.get(stages.size() - 1).jobId;
    }
    return submit(document, new Caller(owner, false), origin);
  }

  /** Validates a job for a schedule: the report, as validateJob gives it, for {@code owner}. */
  public ValidationResult validateFor(
      String owner, String description, Map<String, String> values) {
    return validate(StoredDocuments.document(description, values), new Caller(owner, false));
  }

  /** getServerInfo: the server's limits, and the applications offered to the caller. */
  public ServerInfo serverInfo(Caller caller) {
    return info.withApplications(
        planner.applications().offeredTo(caller.name()).stream()
            .map(JobSubmission::applicationInfo)
            .toList());
  }

  private static ApplicationInfo applicationInfo(NamedApplication app) {
    ApplicationInfo info = new ApplicationInfo();
    info.name = app.name();
    info.version = app.version().isEmpty() ? null : app.version();
    info.kind = app.kind().name().toLowerCase(Locale.ROOT);
    info.processes = app.processes();
    info.description = app.description().isEmpty() ? null : app.description();
    return info;
  }
}
