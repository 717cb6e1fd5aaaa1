package io.gantry.server.service;

import io.gantry.jsdl.JobTemplate;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.JsdlWriter;
import io.gantry.jsdl.ParseResult;
import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.ApplicationInfo;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobFileChunk;
import io.gantry.server.api.JobFileEntry;
import io.gantry.server.api.JobList;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.MissedRunsName;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.api.ParameterValue;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ScheduleInfo;
import io.gantry.server.api.ServerInfo;
import io.gantry.server.api.SessionToken;
import io.gantry.server.api.UserAccountFault;
import io.gantry.server.api.UserInfo;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.config.NamedApplication;
import io.gantry.server.pipeline.JobPlanner;
import io.gantry.server.pipeline.JsdlJobPlan;
import io.gantry.server.pipeline.StoredPlans;
import io.gantry.server.scheduler.JobFailure;
import io.gantry.server.scheduler.MetaScheduler;
import io.gantry.server.security.SessionTokenAuthenticator;
import io.gantry.server.security.UserAdministration;
import io.gantry.server.storage.JobDirectoryRetention;
import io.gantry.server.storage.StorageWatch;
import io.gantry.server.store.DataMovement;
import io.gantry.server.store.JobConditions;
import io.gantry.server.store.JobId;
import io.gantry.server.store.JobOrigin;
import io.gantry.server.store.JobPage;
import io.gantry.server.store.JobQuery;
import io.gantry.server.store.JobRecord;
import io.gantry.server.store.JobState;
import io.gantry.server.store.JobStore;
import io.gantry.server.store.JobStoreException;
import io.gantry.server.store.StoredPlan;
import io.gantry.staging.JobDirectoryReader;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.handler.MessageContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job-management SOAP service. Validates with the same parser as {@code gantry validate},
 * records every job in the job store before the scheduler sees it, and answers only about the
 * caller's own jobs (all jobs for an administrator).
 */
@WebService(
    endpointInterface = "io.gantry.server.api.JobManagement",
    targetNamespace = JobManagement.NAMESPACE,
    serviceName = "JobManagementService",
    portName = "JobManagementPort")
public class JobManagementService implements JobManagement {
  private static final Logger log = LoggerFactory.getLogger(JobManagementService.class);

  /** Largest piece of output returned by one call. */
  static final int MAX_OUTPUT_CHUNK = 1 << 20;

  private final JsdlParser parser;
  private final JobPlanner planner;
  private final JobStore store;
  private final MetaScheduler<JsdlJobPlan> scheduler;
  private final ServerInfo info;
  private final Duration killWait;
  private final StorageWatch storage;
  private final JobDirectoryRetention retention;
  private final JobFlow flow;
  private final UserAdministrationService users;
  private final StageInCacheAdministration stageInCache;

  /** The session-token operations; shared by the views {@link #actingFor} makes. */
  private final SessionTokenService sessionTokens;

  /** The worker-session operations (issue 15); shared by the views {@link #actingFor} makes. */
  private final WorkerSessionService workerSessions;

  /** Where job directories are read: here, or on the cluster for jobs whose directory is there. */
  private volatile JobFileReader jobFiles = JobFileReader.LOCAL;

  /** Set on a view made by {@link #actingFor}; null when the SOAP transport says who calls. */
  private final Caller boundCaller;

  @Resource private WebServiceContext context;

  public JobManagementService(
      JsdlParser parser,
      JobPlanner planner,
      JobStore store,
      MetaScheduler<JsdlJobPlan> scheduler,
      ServerInfo info,
      Duration killGrace,
      StorageWatch storage,
      JobDirectoryRetention retention,
      JobConditions conditions,
      UserAdministration users,
      StageInCacheAdministration stageInCache) {
    this.users = new UserAdministrationService(users);
    this.stageInCache = stageInCache;
    this.parser = parser;
    this.planner = planner;
    this.store = store;
    this.scheduler = scheduler;
    this.info = info;
    this.killWait = killGrace.plusSeconds(5);
    this.storage = storage;
    this.retention = retention;
    this.flow = new JobFlow(store, conditions, scheduler);
    this.sessionTokens = new SessionTokenService();
    this.workerSessions = new WorkerSessionService();
    this.boundCaller = null;
  }

  private JobManagementService(JobManagementService service, Caller caller) {
    this.parser = service.parser;
    this.planner = service.planner;
    this.store = service.store;
    this.scheduler = service.scheduler;
    this.info = service.info;
    this.killWait = service.killWait;
    this.storage = service.storage;
    this.retention = service.retention;
    this.flow = service.flow;
    this.jobFiles = service.jobFiles;
    this.users = service.users;
    this.stageInCache = service.stageInCache;
    this.sessionTokens = service.sessionTokens;
    this.workerSessions = service.workerSessions;
    this.boundCaller = caller;
    this.schedules = service.schedules;
  }

  /** Reads job files with {@code reader} (a server whose job directories are on a cluster). */
  public JobManagementService readingJobFilesWith(JobFileReader reader) {
    this.jobFiles = reader;
    return this;
  }

  /**
   * The same service acting for one user, for a face of the server that authenticates users itself
   * (the web application's form login). Every rule of the SOAP API applies unchanged: the user sees
   * their own jobs, an administrator every job.
   */
  public JobManagementService actingFor(String user, boolean admin) {
    return new JobManagementService(this, new Caller(user, admin));
  }

  /** Issues and accepts session tokens with {@code authenticator} (when authentication is on). */
  public void acceptSessionTokens(SessionTokenAuthenticator authenticator) {
    sessionTokens.enable(authenticator);
  }

  /** How the SOAP caller authenticated (the servlet's auth type); null for in-process callers. */
  private String authType() {
    if (boundCaller != null || context == null) {
      return null;
    }
    try {
      return context.getMessageContext().get(MessageContext.SERVLET_REQUEST)
              instanceof HttpServletRequest request
          ? request.getAuthType()
          : null;
    } catch (IllegalStateException e) {
      return null; // called outside a request
    }
  }

  @Override
  public SessionToken issueSessionToken(String description) throws AccessDeniedFault {
    return sessionTokens.issue(caller(), authType(), description);
  }

  @Override
  public List<SessionToken> listSessionTokens(boolean allUsers) throws AccessDeniedFault {
    return sessionTokens.list(caller(), allUsers);
  }

  @Override
  public boolean revokeSessionToken(String tokenId) {
    return sessionTokens.revoke(caller(), tokenId);
  }

  @Override
  public JobFileChunk getJobFile(String jobId, String path, long offset, int maxBytes)
      throws JobNotFoundFault {
    JobRecord job = ownJob(jobId);
    return JobFiles.chunk(job, planOf(job), retention, jobFiles, path, offset, maxBytes);
  }

  @Override
  public List<JobFileEntry> listJobFiles(String jobId) throws JobNotFoundFault {
    JobRecord job = ownJob(jobId);
    return JobFiles.list(job, planOf(job), retention, jobFiles);
  }

  private Caller caller() {
    return boundCaller != null ? boundCaller : Caller.of(context);
  }

  /**
   * Opens a file of the job's directory, such as a result the program wrote, for in-process readers
   * (the web application's results page). Empty when it is not there (yet), when the job's
   * directory has been removed, or when it is not a regular file inside the directory: the job's
   * program may have replaced it with a link to one of the server's files, and the server reads
   * with more rights than the job ({@link JobDirectoryReader}).
   */
  public Optional<InputStream> openJobFile(String jobId, String relativePath)
      throws JobNotFoundFault {
    JobRecord job = ownJob(jobId);
    Optional<Path> dir = jobDirectory(job);
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Channels.newInputStream(jobFiles.open(dir.get(), relativePath)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      log.warn("job {}: {} not read: {}", jobId, relativePath, e.getMessage());
      return Optional.empty();
    }
  }

  /** Whether {@link #openJobFile} would open the file now. */
  public boolean hasJobFile(String jobId, String relativePath) throws JobNotFoundFault {
    Optional<InputStream> in = openJobFile(jobId, relativePath);
    in.ifPresent(JobManagementService::closeQuietly);
    return in.isPresent();
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // nothing was read or written through it
    }
  }

  private Optional<Path> jobDirectory(JobRecord job) {
    return planOf(job).map(StoredPlan::jobDirectory);
  }

  /**
   * The job's plan as stored at submission: where its files are does not depend on today's
   * configuration, and no read parses the job description again. A job stored before plans were
   * kept is planned once, on its first read, and that plan is stored for every later one.
   */
  private Optional<StoredPlan> planOf(JobRecord job) {
    Optional<StoredPlan> stored = store.plan(job.id());
    return stored.isPresent() ? stored : planStoredJob(job);
  }

  private Optional<StoredPlan> planStoredJob(JobRecord job) {
    Map<String, String> values = store.origin(job.id()).parameters();
    ParseResult parsed =
        store.jobDescription(job.id()).map(xml -> parser.parse(xml, values)).orElse(null);
    if (parsed == null || !parsed.isValid()) {
      log.warn(
          "job {}: stored before its plan was kept, and its description no longer parses; its files"
              + " cannot be found",
          job.id());
      return Optional.empty();
    }
    StoredPlan plan = StoredPlans.of(planner.filesOf(job.id(), job.owner(), parsed.validJob()));
    if (store.recordPlan(job.id(), plan)) {
      log.info("job {}: stored before its plan was kept; planned once now and stored", job.id());
      return Optional.of(plan);
    }
    return store.plan(job.id()); // another read stored it first: that one holds
  }

  @Override
  public String submitJob(JobDocument jobDefinition) throws InvalidJobFault, LimitExceededFault {
    try {
      return submit(jobDefinition, caller());
    } catch (JobStoreException e) {
      // A store failing between two checks of the storage watch: answer at once, check soon.
      storage.checkSoon();
      throw storageFault(
          storage.problem().orElse("the job store cannot be reached or written"),
          "the job was not accepted");
    }
  }

  private String submit(JobDocument jobDefinition, Caller caller)
      throws InvalidJobFault, LimitExceededFault {
    return submit(jobDefinition, caller, JobOrigin.NONE);
  }

  /**
   * Checks and queues a job. {@code origin} says where it came from (a resubmission, a schedule);
   * its parameter values are those the job was filled with, whatever {@code origin} holds.
   */
  String submit(JobDocument jobDefinition, Caller caller, JobOrigin origin)
      throws InvalidJobFault, LimitExceededFault {
    Checked checked = check(jobDefinition, caller);
    if (!checked.result().valid) {
      throw new InvalidJobFault(
          "the job description is invalid: "
              + checked.result().problems.stream().filter(p -> p.severity.equals("ERROR")).count()
              + " problem(s)",
          checked.result());
    }
    long unfinished = store.countUnfinished(caller.name());
    if (unfinished >= info.maxQueuedJobsPerUser) {
      String message =
          "user "
              + caller.name()
              + " already has "
              + unfinished
              + " unfinished jobs, the most this server accepts (limits.queued-jobs-per-user); wait for"
              + " some to end or cancel them";
      throw new LimitExceededFault(message, new FaultDetail("LIMIT_EXCEEDED", message, null, null));
    }
    JsdlJob job = checked.job();
    JsdlJobPlan plan = checked.plan();
    requireStorage("the job was not accepted");
    flow.recordAtSubmission(plan.jobId(), checked.dependencies(), job.heldAtSubmission(), caller);
    // planned once, by check: the job is stored under the id it was planned for, with that plan
    // a template is kept as written, with its values beside it: definition, resubmission and a
    // restarted server fill it again exactly as at submission
    JobRecord record =
        store.submit(
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
                origin.scheduledFor()));
    // The store may have taken the job into a file deleted since the last check: acknowledge
    // only what a fresh check says is kept.
    if (storage.confirmStillThere().isPresent()) {
      try {
        store.transition(
            record.id(),
            JobState.QUEUED,
            JobState.FAILED,
            "the server's storage failed as the job was stored");
      } catch (RuntimeException e) {
        // the store is failing: the fault below is the answer either way
      }
      requireStorage("the job was not accepted");
    }
    scheduler.submitted(plan);
    return record.id().toString();
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

  @Override
  public ValidationResult validateJob(JobDocument jobDefinition) {
    return check(jobDefinition, caller()).result();
  }

  /**
   * A check's report, and for a valid job its description and the plan made for it (under a fresh
   * id).
   */
  private record Checked(
      ValidationResult result,
      JsdlJob job,
      JsdlJobPlan plan,
      List<io.gantry.server.store.JobDependency> dependencies) {}

  /** Schema and semantic checks, then what only this server knows (data sources, identities). */
  private Checked check(JobDocument document, Caller caller) {
    ValidationResult result = new ValidationResult();
    if (document == null || document.getJobDefinition() == null) {
      result.problems.add(
          problem("ERROR", 0, 0, "", "the message carries no JobDefinition element"));
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
    List<io.gantry.server.store.JobDependency> dependencies = List.of();
    if (job != null) {
      List<Problem> unknown = new ArrayList<>();
      dependencies = flow.dependencies(job, caller, id -> findVisible(id, caller), unknown);
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

  @Override
  public JobStatusInfo getJobStatus(String jobId) throws JobNotFoundFault {
    JobRecord job = ownJob(jobId);
    return StatusMapper.withOrigin(status(job), store.origin(job.id()));
  }

  @Override
  public List<JobStatusInfo> getJobStatuses(List<String> jobIds) {
    Caller caller = caller();
    List<String> ids = jobIds == null ? List.of() : jobIds;
    if (ids.size() > JobQuery.MAX_LIMIT) {
      throw new InvalidArgumentException(
          "jobId", "at most " + JobQuery.MAX_LIMIT + " ids per call, got " + ids.size());
    }
    for (String id : ids) {
      checkedId(id);
    }
    // one answer per id asked, in order: a client can zip them; unknown and foreign ids look alike
    List<JobStatusInfo> result = new ArrayList<>();
    for (String id : ids) {
      result.add(
          findVisible(id, caller).map(this::status).orElseGet(() -> StatusMapper.notFound(id)));
    }
    return result;
  }

  @Override
  public JobList listJobs(List<JobStateName> states, int offset, int limit, boolean allUsers)
      throws AccessDeniedFault {
    if (offset < 0) {
      throw new InvalidArgumentException("offset", "must be 0 or more, was " + offset);
    }
    if (limit < 1 || limit > JobQuery.MAX_LIMIT) {
      throw new InvalidArgumentException(
          "limit", "must be between 1 and " + JobQuery.MAX_LIMIT + ", was " + limit);
    }
    Caller caller = caller();
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
    page.jobs().forEach(j -> list.jobs.add(status(j)));
    return list;
  }

  @Override
  public JobStatusInfo cancelJob(String jobId) throws JobNotFoundFault, JobStateFault {
    Caller caller = caller();
    JobRecord job = ownJob(jobId, caller);
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

  @Override
  public JobStatusInfo killJob(String jobId) throws JobNotFoundFault, JobStateFault {
    Caller caller = caller();
    JobRecord job = ownJob(jobId, caller);
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

  @Override
  public OutputChunk getJobOutput(String jobId, OutputStreamName stream, long offset, int maxBytes)
      throws JobNotFoundFault {
    if (offset < 0) {
      throw new InvalidArgumentException("offset", "must be 0 or more, was " + offset);
    }
    if (maxBytes < 1 || maxBytes > MAX_OUTPUT_CHUNK) {
      throw new InvalidArgumentException(
          "maxBytes", "must be between 1 and " + MAX_OUTPUT_CHUNK + ", was " + maxBytes);
    }
    JobRecord job = ownJob(jobId);
    OutputChunk chunk = new OutputChunk();
    chunk.stream = stream == null ? OutputStreamName.STDOUT : stream;
    chunk.offset = offset;
    chunk.nextOffset = chunk.offset;
    chunk.size = 0L;
    boolean ended = job.state().isFinal();
    chunk.complete = ended;
    Optional<StoredPlan> plan =
        planOf(job).filter(StoredPlan::runsProgram); // staging only: no output
    if (plan.isEmpty()) {
      return chunk;
    }
    Path dir = plan.get().jobDirectory();
    String file =
        chunk.stream == OutputStreamName.STDERR ? plan.get().stderr() : plan.get().stdout();
    if (ended && retention.removed(job, dir)) {
      chunk.note = retention.removedNote(job);
      return chunk;
    }
    int want = maxBytes;
    try (SeekableByteChannel in = jobFiles.open(dir, file)) {
      long size = in.size();
      chunk.size = size;
      if (chunk.offset < size) {
        ByteBuffer data = ByteBuffer.allocate((int) Math.min(want, size - chunk.offset));
        in.position(chunk.offset);
        while (data.hasRemaining() && in.read(data) > 0) {
          // a file can only be cut short by its job meanwhile; what was read is returned
        }
        chunk.data = java.util.Arrays.copyOf(data.array(), data.position());
        chunk.nextOffset = chunk.offset + chunk.data.length;
      }
      chunk.complete = ended && chunk.nextOffset >= size;
    } catch (NoSuchFileException e) {
      return chunk; // not written (yet)
    } catch (JobDirectoryReader.RefusedFileException e) {
      log.warn("job {}: output {} not read: {}", jobId, e.getFile(), e.getReason());
      chunk.note =
          "the job's "
              + chunk.stream.name().toLowerCase(java.util.Locale.ROOT)
              + " file "
              + e.getFile()
              + " "
              + e.getReason()
              + "; the server does not read it";
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the output of job " + jobId, e);
    }
    return chunk;
  }

  @Override
  public JobResults getJobResults(String jobId) throws JobNotFoundFault {
    JobRecord job = ownJob(jobId);
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

  @Override
  public JobAudit getJobAudit(String jobId) throws JobNotFoundFault {
    JobRecord job = ownJob(jobId);
    return AuditTrail.of(job, store.history(job.id()), store.dataMovements(job.id()));
  }

  @Override
  public JobDocument getJobDefinition(String jobId) throws JobNotFoundFault {
    Caller caller = caller();
    JobRecord job = ownJob(jobId, caller);
    // the owner may resubmit it: their ENC(...) values decrypt for nobody else anyway
    boolean owner = job.owner().equals(caller.name());
    return new JobDocument(
        DefinitionRedactor.redacted(store.jobDescription(job.id()).orElseThrow(), owner),
        TemplateValues.toApi(store.origin(job.id()).parameters()));
  }

  @Override
  public ServerInfo getServerInfo() {
    return info.withApplications(
        planner.applications().offeredTo(caller().name()).stream()
            .map(JobManagementService::applicationInfo)
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

  private JobRecord ownJob(String jobId) throws JobNotFoundFault {
    return ownJob(jobId, caller());
  }

  /** The job, if it exists and the caller may see it; one fault for "no such" and "not yours". */
  private JobRecord ownJob(String jobId, Caller caller) throws JobNotFoundFault {
    checkedId(jobId);
    return findVisible(jobId, caller)
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
  private static JobId checkedId(String jobId) {
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

  private Optional<JobRecord> findVisible(String jobId, Caller caller) {
    JobId id;
    try {
      id = JobId.parse(jobId);
    } catch (IllegalArgumentException | NullPointerException e) {
      return Optional.empty();
    }
    return store.find(id).filter(job -> caller.mayAccess(job.owner()));
  }

  /** The job's status, with what it waits for when the server keeps it back. */
  private JobStatusInfo status(JobRecord job) {
    return flow.withReason(StatusMapper.status(job), job);
  }

  // ---- dependencies, holds and retried stage-outs (JobFlow) ------------------------------

  @Override
  public JobStatusInfo holdJob(String jobId) throws JobNotFoundFault, JobStateFault {
    Caller caller = caller();
    return status(flow.hold(ownJob(jobId, caller), caller));
  }

  @Override
  public JobStatusInfo releaseJob(String jobId) throws JobNotFoundFault, JobStateFault {
    Caller caller = caller();
    return status(flow.release(ownJob(jobId, caller), caller));
  }

  @Override
  public JobStatusInfo retryStageOut(String jobId) throws JobNotFoundFault, JobStateFault {
    Caller caller = caller();
    JobRecord job = ownJob(jobId, caller);
    return status(flow.retryStageOut(job, planOf(job), caller));
  }

  static JobStateFault stateFault(String message, JobRecord job) {
    return new JobStateFault(
        message,
        new FaultDetail(
            "JOB_STATE", message, job.id().toString(), JobStateName.valueOf(job.state().name())));
  }

  // ---- user administration (issue 18): the logic is UserAdministrationService's -------------

  private UserAdministrationService users() {
    if (users == null) {
      throw new IllegalStateException("this server offers no user administration");
    }
    return users;
  }

  @Override
  public List<UserInfo> listUsers() throws AccessDeniedFault {
    return users().list(caller());
  }

  @Override
  public UserInfo addUser(String name, String password, String role, String osAccount)
      throws AccessDeniedFault, UserAccountFault {
    return users().add(caller(), name, password, role, osAccount);
  }

  @Override
  public UserInfo removeUser(String name) throws AccessDeniedFault, UserAccountFault {
    UserInfo removed = users().remove(caller(), name);
    workerSessions.closeAllOf(name); // its schedules and tokens went in the removal's transaction
    return removed;
  }

  @Override
  public UserInfo setUserPassword(String name, String password)
      throws AccessDeniedFault, UserAccountFault {
    return users().setPassword(caller(), name, password);
  }

  @Override
  public UserInfo setUserRole(String name, String role) throws AccessDeniedFault, UserAccountFault {
    return users().setRole(caller(), name, role);
  }

  @Override
  public UserInfo setUserOsAccount(String name, String osAccount)
      throws AccessDeniedFault, UserAccountFault {
    return users().setOsAccount(caller(), name, osAccount);
  }

  // ---- job templates, resubmission and schedules (issue 18) ----

  /** The schedules' operations; null on a server built without them. */
  private ScheduleBook schedules;

  /** Gives the service its schedules (the server wires them after both exist). */
  public void useSchedules(ScheduleBook book) {
    this.schedules = book;
  }

  private ScheduleBook schedules() {
    if (schedules == null) {
      throw new IllegalStateException("this server keeps no schedules");
    }
    return schedules;
  }

  @Override
  public String resubmitJob(String jobId, List<ParameterValue> parameters)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault {
    Caller caller = caller();
    JobRecord original = ownJob(jobId, caller);
    Map<String, String> values = new LinkedHashMap<>(store.origin(original.id()).parameters());
    values.putAll(TemplateValues.of(parameters));
    String description = store.jobDescription(original.id()).orElseThrow();
    // the new job is the original owner's: its encrypted passwords are bound to that user
    return submit(
        StoredDocuments.document(description, values),
        caller.name().equals(original.owner()) ? caller : new Caller(original.owner(), false),
        new JobOrigin(Map.of(), original.id(), null, null, null));
  }

  /** Submits a schedule's job for one of its times, as the schedule's owner. */
  String submitScheduled(
      String owner, String description, Map<String, String> values, JobOrigin origin)
      throws InvalidJobFault, LimitExceededFault {
    return submit(StoredDocuments.document(description, values), new Caller(owner, false), origin);
  }

  /** Validates a job for a schedule: the report, as validateJob gives it, for {@code owner}. */
  ValidationResult validateFor(String owner, String description, Map<String, String> values) {
    return check(StoredDocuments.document(description, values), new Caller(owner, false)).result();
  }

  @Override
  public ScheduleInfo addSchedule(
      String name,
      String cron,
      String timeZone,
      MissedRunsName missedRuns,
      JobDocument jobDefinition)
      throws InvalidJobFault {
    return schedules().add(caller(), name, cron, timeZone, missedRuns, jobDefinition);
  }

  @Override
  public List<ScheduleInfo> listSchedules(boolean allUsers) throws AccessDeniedFault {
    return schedules().list(caller(), allUsers);
  }

  @Override
  public ScheduleInfo pauseSchedule(String scheduleId) {
    return schedules().pause(caller(), scheduleId);
  }

  @Override
  public String runSchedule(String scheduleId) throws InvalidJobFault, LimitExceededFault {
    return schedules().runNow(caller(), scheduleId);
  }

  @Override
  public ScheduleInfo resumeSchedule(String scheduleId) {
    return schedules().resume(caller(), scheduleId);
  }

  @Override
  public ScheduleInfo removeSchedule(String scheduleId) {
    return schedules().remove(caller(), scheduleId);
  }

  // --- stage-in cache administration (issue 16): the logic is StageInCacheAdministration's ---

  @Override
  public io.gantry.server.api.StageInCacheList listStageInCache() throws AccessDeniedFault {
    return stageInCache.list(caller());
  }

  @Override
  public int clearStageInCache(String key) throws AccessDeniedFault {
    return stageInCache.clear(caller(), key);
  }

  // --- worker sessions (issue 15): the logic is WorkerSessionService's and WorkerSessions' ---

  /** Serves worker sessions with {@code sessions}. */
  public void acceptWorkerSessions(io.gantry.server.workers.WorkerSessions sessions) {
    workerSessions.enable(sessions);
  }

  @Override
  public io.gantry.server.api.WorkerSessionInfo openWorkerSession(
      String application, String executable, List<String> arguments, int workers, Integer window)
      throws LimitExceededFault {
    return workerSessions.open(caller(), application, executable, arguments, workers, window);
  }

  @Override
  public List<Long> submitWorkerMessages(
      String sessionId, List<io.gantry.server.api.WorkerMessage> messages)
      throws LimitExceededFault {
    return workerSessions.submit(caller(), sessionId, messages);
  }

  @Override
  public io.gantry.server.api.WorkerCompletions takeWorkerCompletions(
      String sessionId, int maxCompletions, int waitSeconds) {
    return workerSessions.take(caller(), sessionId, maxCompletions, waitSeconds);
  }

  @Override
  public io.gantry.server.api.WorkerSessionInfo getWorkerSession(String sessionId) {
    return workerSessions.get(caller(), sessionId);
  }

  @Override
  public List<io.gantry.server.api.WorkerSessionInfo> listWorkerSessions(boolean allUsers)
      throws AccessDeniedFault {
    return workerSessions.list(caller(), allUsers);
  }

  @Override
  public io.gantry.server.api.WorkerSessionInfo closeWorkerSession(String sessionId) {
    return workerSessions.close(caller(), sessionId);
  }
}
