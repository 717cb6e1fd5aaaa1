package io.gantry.server.api;

import io.gantry.server.internal.accounting.AccountingService;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.notify.NotifySubscriptionBook;
import io.gantry.server.internal.risk.RiskViewService;
import io.gantry.server.internal.schedules.ScheduleBook;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.ChainRerun;
import io.gantry.server.internal.service.JobControl;
import io.gantry.server.internal.service.JobOutputs;
import io.gantry.server.internal.service.JobSubmission;
import io.gantry.server.internal.service.VisibleJobs;
import io.gantry.server.internal.stagein.StageInCacheAdministration;
import io.gantry.server.internal.users.SessionTokenService;
import io.gantry.server.internal.users.UserAdministrationService;
import io.gantry.server.internal.workersession.WorkerSessionService;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.handler.MessageContext;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The job-management SOAP service: the facade of the server's operations. Says who calls, and hands
 * each operation to the service that owns it: job submission ({@link JobSubmission}), the stored
 * jobs ({@link JobControl}), their files ({@link JobOutputs}), schedules ({@link ScheduleBook}),
 * users ({@link UserAdministrationService}), session tokens ({@link SessionTokenService}), worker
 * sessions ({@link WorkerSessionService}), the stage-in cache ({@link StageInCacheAdministration}),
 * the risk view's VaR results ({@link RiskViewService}) and notification subscriptions ({@link
 * NotifySubscriptionBook}). Every operation answers only about the caller's own jobs (all jobs for
 * an administrator).
 */
@WebService(
    endpointInterface = "io.gantry.server.api.JobManagement",
    targetNamespace = JobManagement.NAMESPACE,
    serviceName = "JobManagementService",
    portName = "JobManagementPort")
public class JobManagementService implements JobManagement {
  /** The operations, one service a concern; shared by the views {@link #actingFor} makes. */
  public record Operations(
      JobSubmission submission,
      JobControl jobs,
      JobOutputs outputs,
      VisibleJobs visible,
      ScheduleBook schedules,
      UserAdministrationService users,
      SessionTokenService sessionTokens,
      WorkerSessionService workerSessions,
      StageInCacheAdministration stageInCache,
      RiskViewService riskView,
      ChainRerun chains,
      NotifySubscriptionBook notifySubscriptions,
      AccountingService accounting) {}

  private final Operations operations;

  /** Set on a view made by {@link #actingFor}; null when the SOAP transport says who calls. */
  private final Caller boundCaller;

  @Resource private WebServiceContext context;

  public JobManagementService(Operations operations) {
    this(operations, null);
  }

  private JobManagementService(Operations operations, Caller caller) {
    this.operations = operations;
    this.boundCaller = caller;
  }

  /**
   * The same service acting for one user, for a face of the server that authenticates users itself
   * (the web application's form login). Every rule of the SOAP API applies unchanged: the user sees
   * their own jobs, an administrator every job.
   */
  public JobManagementService actingFor(String user, boolean admin) {
    return new JobManagementService(operations, new Caller(user, admin));
  }

  private Caller caller() {
    return boundCaller != null ? boundCaller : Caller.of(context);
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

  // ---- session tokens: the logic is SessionTokenService's ----

  @Override
  public SessionToken issueSessionToken(String description) throws AccessDeniedFault {
    return operations.sessionTokens().issue(caller(), authType(), description);
  }

  @Override
  public List<SessionToken> listSessionTokens(boolean allUsers) throws AccessDeniedFault {
    return operations.sessionTokens().list(caller(), allUsers);
  }

  @Override
  public boolean revokeSessionToken(String tokenId) {
    return operations.sessionTokens().revoke(caller(), tokenId);
  }

  // ---- submission: the logic is JobSubmission's ----

  @Override
  public String submitJob(JobDocument jobDefinition) throws InvalidJobFault, LimitExceededFault {
    return operations.submission().submitJob(jobDefinition, caller());
  }

  @Override
  public List<ChainStage> submitChain(JobDocument chain)
      throws InvalidJobFault, LimitExceededFault {
    return operations.submission().submitChain(chain, caller());
  }

  @Override
  public ValidationResult validateJob(JobDocument jobDefinition) {
    return operations.submission().validate(jobDefinition, caller());
  }

  @Override
  public String resubmitJob(String jobId, List<ParameterValue> parameters)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault {
    return operations.submission().resubmit(jobId, parameters, caller());
  }

  @Override
  public List<RerunStage> resubmitChain(List<String> jobIds, String fromStage)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault, JobStateFault {
    return operations.chains().rerunFrom(jobIds, fromStage, caller());
  }

  @Override
  public String resubmitFailedTasks(String jobId)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault, JobStateFault {
    return operations.submission().resubmitFailedTasks(jobId, caller());
  }

  @Override
  public ServerInfo getServerInfo() {
    return operations.submission().serverInfo(caller());
  }

  // ---- stored jobs: the logic is JobControl's and JobFlow's ----

  @Override
  public JobStatusInfo getJobStatus(String jobId) throws JobNotFoundFault {
    return operations.jobs().statusWithOrigin(jobId, caller());
  }

  @Override
  public JobStatusInfo waitForJob(String jobId, int seconds) throws JobNotFoundFault {
    return operations.jobs().waitForJob(jobId, seconds, caller());
  }

  @Override
  public List<JobStatusInfo> getJobStatuses(List<String> jobIds) {
    return operations.jobs().statuses(jobIds, caller());
  }

  @Override
  public JobList listJobs(List<JobStateName> states, int offset, int limit, boolean allUsers)
      throws AccessDeniedFault {
    return operations.jobs().list(states, offset, limit, allUsers, caller());
  }

  @Override
  public JobStatusInfo cancelJob(String jobId) throws JobNotFoundFault, JobStateFault {
    return operations.jobs().cancel(jobId, caller());
  }

  @Override
  public JobStatusInfo killJob(String jobId) throws JobNotFoundFault, JobStateFault {
    return operations.jobs().kill(jobId, caller());
  }

  @Override
  public JobStatusInfo holdJob(String jobId) throws JobNotFoundFault, JobStateFault {
    return operations.jobs().hold(jobId, caller());
  }

  @Override
  public JobStatusInfo releaseJob(String jobId) throws JobNotFoundFault, JobStateFault {
    return operations.jobs().release(jobId, caller());
  }

  @Override
  public JobStatusInfo retryStageOut(String jobId) throws JobNotFoundFault, JobStateFault {
    return operations.jobs().retryStageOut(jobId, caller());
  }

  @Override
  public JobResults getJobResults(String jobId) throws JobNotFoundFault {
    return operations.jobs().results(jobId, caller());
  }

  @Override
  public JobAudit getJobAudit(String jobId) throws JobNotFoundFault {
    return operations.jobs().audit(jobId, caller());
  }

  @Override
  public JobDocument getJobDefinition(String jobId) throws JobNotFoundFault {
    return operations.jobs().definition(jobId, caller());
  }

  // ---- a job's files: the logic is JobOutputs' ----

  @Override
  public OutputChunk getJobOutput(String jobId, OutputStreamName stream, long offset, int maxBytes)
      throws JobNotFoundFault {
    JobOutputs.checkOutputRange(offset, maxBytes);
    return operations.outputs().output(ownJob(jobId), stream, offset, maxBytes);
  }

  @Override
  public JobFileChunk getJobFile(String jobId, String path, long offset, int maxBytes)
      throws JobNotFoundFault {
    return operations.outputs().file(ownJob(jobId), path, offset, maxBytes);
  }

  @Override
  public List<JobFileEntry> listJobFiles(String jobId) throws JobNotFoundFault {
    return operations.outputs().files(ownJob(jobId));
  }

  /**
   * Opens a file of the job's directory, such as a result the program wrote, for in-process readers
   * (the web application's results page). Empty when it is not there (yet), when the job's
   * directory has been removed, or when it is not a regular file inside the directory: the job's
   * program may have replaced it with a link to one of the server's files, and the server reads
   * with more rights than the job ({@link io.gantry.staging.JobDirectoryReader}).
   */
  public Optional<InputStream> openJobFile(String jobId, String relativePath)
      throws JobNotFoundFault {
    return operations.outputs().open(ownJob(jobId), relativePath);
  }

  /** Whether {@link #openJobFile} would open the file now. */
  public boolean hasJobFile(String jobId, String relativePath) throws JobNotFoundFault {
    return operations.outputs().has(ownJob(jobId), relativePath);
  }

  private JobRecord ownJob(String jobId) throws JobNotFoundFault {
    return operations.visible().own(jobId, caller());
  }

  // ---- user administration (issue 18): the logic is UserAdministrationService's ----

  private UserAdministrationService users() {
    UserAdministrationService users = operations.users();
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
    operations
        .workerSessions()
        .closeAllOf(name); // its schedules and tokens went in the removal's transaction
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

  // ---- schedules (issue 18): the logic is ScheduleBook's ----

  private ScheduleBook schedules() {
    ScheduleBook schedules = operations.schedules();
    if (schedules == null) {
      throw new IllegalStateException("this server keeps no schedules");
    }
    return schedules;
  }

  @Override
  public ScheduleInfo addSchedule(
      String name,
      String cron,
      String timeZone,
      MissedRunsName missedRuns,
      JobDocument jobDefinition,
      String calendar)
      throws InvalidJobFault {
    return schedules().add(caller(), name, cron, timeZone, missedRuns, jobDefinition, calendar);
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

  // ---- notification subscriptions: the logic is NotifySubscriptionBook's ----

  @Override
  public NotifySubscriptionInfo addNotifySubscription(
      String target, List<String> events, String schedule) {
    return operations.notifySubscriptions().add(caller(), target, events, schedule);
  }

  @Override
  public List<NotifySubscriptionInfo> listNotifySubscriptions(boolean allUsers)
      throws AccessDeniedFault {
    return operations.notifySubscriptions().list(caller(), allUsers);
  }

  @Override
  public NotifySubscriptionInfo removeNotifySubscription(String subscriptionId) {
    return operations.notifySubscriptions().remove(caller(), subscriptionId);
  }

  // --- stage-in cache administration (issue 16): the logic is StageInCacheAdministration's ---

  @Override
  public io.gantry.server.api.StageInCacheList listStageInCache() throws AccessDeniedFault {
    return operations.stageInCache().list(caller());
  }

  @Override
  public int clearStageInCache(String key) throws AccessDeniedFault {
    return operations.stageInCache().clear(caller(), key);
  }

  @Override
  public io.gantry.server.api.AccountingReport getAccounting(String from, String to, String by)
      throws AccessDeniedFault {
    return operations.accounting().report(caller(), from, to, by);
  }

  // --- worker sessions (issue 15): the logic is WorkerSessionService's and WorkerSessions' ---

  @Override
  public io.gantry.server.api.WorkerSessionInfo openWorkerSession(
      String application, String executable, List<String> arguments, int workers, Integer window)
      throws LimitExceededFault {
    return operations
        .workerSessions()
        .open(caller(), application, executable, arguments, workers, window);
  }

  @Override
  public List<Long> submitWorkerMessages(
      String sessionId, List<io.gantry.server.api.WorkerMessage> messages)
      throws LimitExceededFault {
    return operations.workerSessions().submit(caller(), sessionId, messages);
  }

  @Override
  public io.gantry.server.api.WorkerCompletions takeWorkerCompletions(
      String sessionId, int maxCompletions, int waitSeconds) {
    return operations.workerSessions().take(caller(), sessionId, maxCompletions, waitSeconds);
  }

  @Override
  public io.gantry.server.api.WorkerSessionInfo getWorkerSession(String sessionId) {
    return operations.workerSessions().get(caller(), sessionId);
  }

  @Override
  public List<io.gantry.server.api.WorkerSessionInfo> listWorkerSessions(boolean allUsers)
      throws AccessDeniedFault {
    return operations.workerSessions().list(caller(), allUsers);
  }

  @Override
  public io.gantry.server.api.WorkerSessionInfo closeWorkerSession(String sessionId) {
    return operations.workerSessions().close(caller(), sessionId);
  }

  // --- the morning risk view: the logic is RiskViewService's ---

  @Override
  public List<io.gantry.server.api.VarFigureInfo> getVarSummary(String businessDate, String node) {
    return operations.riskView().summary(caller(), businessDate, node);
  }

  @Override
  public List<io.gantry.server.api.VarFigureInfo> getVarHistory(
      String node, String from, String to) {
    return operations.riskView().history(caller(), node, from, to);
  }

  @Override
  public List<io.gantry.server.api.BacktestInfo> getVarBacktest(String node, String businessDate) {
    return operations.riskView().backtest(caller(), node, businessDate);
  }

  @Override
  public List<io.gantry.server.api.VarExplainInfo> getVarExplain(
      String node, String from, String to, Integer top) {
    return operations.riskView().explain(caller(), node, from, to, top);
  }

  @Override
  public List<io.gantry.server.api.VarLimitInfo> getVarLimits(
      String businessDate, String node, boolean breachesOnly) {
    return operations.riskView().limits(caller(), businessDate, node, breachesOnly);
  }

  // in process only (the web application's dashboard), not operations of the SOAP API

  /** The daily P&L of {@code node} on business dates {@code from} to {@code to} inclusive. */
  public List<io.gantry.server.api.VarPnlInfo> getVarPnl(String node, String from, String to) {
    return operations.riskView().pnl(caller(), node, from, to);
  }

  /** The positions' contributions to {@code node}'s VaR and ES in one run of one data source. */
  public List<io.gantry.server.api.VarPositionInfo> getVarPositions(
      String dataSource, String runId, String node) {
    return operations.riskView().positions(caller(), dataSource, runId, node);
  }

  @Override
  public List<io.gantry.server.api.BacktestExceptionInfo> getVarBacktestExceptions(
      String node, String businessDate) {
    return operations.riskView().backtestExceptions(caller(), node, businessDate);
  }
}
