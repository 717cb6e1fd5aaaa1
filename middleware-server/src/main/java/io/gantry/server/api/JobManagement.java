package io.gantry.server.api;

import io.gantry.soap.SoapContract;
import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.jws.soap.SOAPBinding;
import java.util.List;

/**
 * Gantry's job-management service: the whole lifecycle of a job, for any standard SOAP stack.
 *
 * <p>The caller's identity comes from the transport (HTTP authentication or WS-Security), not from
 * a parameter, so it cannot be forged in the message body. Every operation acts on the caller's own
 * jobs; a job that does not exist and a job of another user give the same {@link JobNotFoundFault},
 * so job ids cannot be probed.
 */
@WebService(name = "JobManagement", targetNamespace = JobManagement.NAMESPACE)
@SOAPBinding(
    style = SOAPBinding.Style.DOCUMENT,
    use = SOAPBinding.Use.LITERAL,
    parameterStyle = SOAPBinding.ParameterStyle.WRAPPED)
public interface JobManagement {

  /**
   * Versioned target namespace; a change that breaks clients gets a new version (in soap-contract).
   */
  String NAMESPACE = SoapContract.API_NAMESPACE;

  /**
   * Validates and queues a job. The job description travels as the JSDL {@code JobDefinition}
   * element itself, so BPEL engines and other stacks can build it as XML.
   *
   * @return the new job's id: 32 characters, safe in URLs and file names
   */
  @WebMethod
  @WebResult(name = "jobId")
  String submitJob(@WebParam(name = "jobDefinition") JobDocument jobDefinition)
      throws InvalidJobFault, LimitExceededFault;

  /**
   * Validates and queues a chain of jobs as one unit (docs/workflows.md, "A chain submitted as one
   * unit"): {@code chain}'s element is a {@code gx:JobChain} of JSDL {@code JobDefinition}s, whose
   * stages (their JobNames) name each other in {@code gx:After}, {@code gx:AfterAny} and {@code
   * gantry-job:STAGE/FILE} sources; its parameter values go to the stages that declare them. Every
   * stage is checked as submitJob checks a job, and all are stored in one transaction, or none.
   * validateJob checks a chain the same way.
   *
   * @return each stage and its new job's id, in the order they depend on each other
   */
  @WebMethod
  @WebResult(name = "stage")
  List<ChainStage> submitChain(@WebParam(name = "chain") JobDocument chain)
      throws InvalidJobFault, LimitExceededFault;

  /** Validates a job description without queueing it; returns every problem found. */
  @WebMethod
  @WebResult(name = "validation")
  ValidationResult validateJob(@WebParam(name = "jobDefinition") JobDocument jobDefinition);

  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo getJobStatus(@WebParam(name = "jobId") String jobId) throws JobNotFoundFault;

  /**
   * {@code getJobStatus}'s answer once the job is final (SUCCEEDED, FAILED, CANCELLED, KILLED), or
   * when {@code seconds} have passed (at most 20; 0 answers at once), whichever comes first: a
   * client learns of the end when it happens, without polling. While the server already holds 64
   * waits, or is stopping, it answers at once; ask again, as a polling client would.
   */
  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo waitForJob(
      @WebParam(name = "jobId") String jobId, @WebParam(name = "seconds") int seconds)
      throws JobNotFoundFault;

  /**
   * Status of several jobs at once (at most 1000 ids): one answer per id asked, in the order asked;
   * an id that names no job the caller may see is answered with {@code notFound} true.
   */
  @WebMethod
  @WebResult(name = "status")
  List<JobStatusInfo> getJobStatuses(@WebParam(name = "jobId") List<String> jobIds);

  /**
   * Lists jobs, newest first.
   *
   * @param states only jobs in one of these states; none means all
   * @param allUsers every user's jobs (administrators only)
   */
  @WebMethod
  @WebResult(name = "jobs")
  JobList listJobs(
      @WebParam(name = "state") List<JobStateName> states,
      @WebParam(name = "offset") int offset,
      @WebParam(name = "limit") int limit,
      @WebParam(name = "allUsers") boolean allUsers)
      throws AccessDeniedFault;

  /** Removes a job that has not started running: it ends CANCELLED. */
  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo cancelJob(@WebParam(name = "jobId") String jobId)
      throws JobNotFoundFault, JobStateFault;

  /** Stops a running job (SIGTERM to its process tree, then SIGKILL): it ends KILLED. */
  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo killJob(@WebParam(name = "jobId") String jobId)
      throws JobNotFoundFault, JobStateFault;

  /**
   * A piece of the job's standard output or error from a byte offset, also while it runs. Callers
   * follow a job by passing back {@link OutputChunk#getNextOffset()}.
   */
  @WebMethod
  @WebResult(name = "output")
  OutputChunk getJobOutput(
      @WebParam(name = "jobId") String jobId,
      @WebParam(name = "stream") OutputStreamName stream,
      @WebParam(name = "offset") long offset,
      @WebParam(name = "maxBytes") int maxBytes)
      throws JobNotFoundFault;

  /** The staging manifest (every file staged in, with rows, bytes, checksum) and stage-out. */
  @WebMethod
  @WebResult(name = "results")
  JobResults getJobResults(@WebParam(name = "jobId") String jobId) throws JobNotFoundFault;

  /**
   * The job's audit trail: every change of state with who caused it, and every data movement
   * (source, target, rows, bytes, checksum), oldest first. Owners read their jobs', administrators
   * every job's.
   */
  @WebMethod
  @WebResult(name = "audit")
  JobAudit getJobAudit(@WebParam(name = "jobId") String jobId) throws JobNotFoundFault;

  /** The job description as submitted, with every password value redacted. */
  @WebMethod
  @WebResult(name = "jobDefinition")
  JobDocument getJobDefinition(@WebParam(name = "jobId") String jobId) throws JobNotFoundFault;

  // ---- dependencies, holds and retried stage-outs ----------------------------------------

  /**
   * Holds a QUEUED job whose stage-in has not begun: it waits, holding no slot and staging nothing,
   * until {@link #releaseJob}. A job may also be submitted held ({@code gx:Hold}).
   */
  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo holdJob(@WebParam(name = "jobId") String jobId)
      throws JobNotFoundFault, JobStateFault;

  /** Lifts a job's hold: it queues again once the jobs it depends on allow. */
  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo releaseJob(@WebParam(name = "jobId") String jobId)
      throws JobNotFoundFault, JobStateFault;

  /**
   * Runs again the stage-out of a job whose program succeeded and whose stage-out failed: only the
   * steps that did not commit run (the stage-out ledger skips the others), and the job goes through
   * STAGING_OUT to SUCCEEDED or FAILED again, recorded in its audit trail.
   */
  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo retryStageOut(@WebParam(name = "jobId") String jobId)
      throws JobNotFoundFault, JobStateFault;

  // ---- end of dependencies, holds and retried stage-outs ---------------------------------

  /** Version, limits, and the public key for encrypting passwords in job descriptions. */
  @WebMethod
  @WebResult(name = "serverInfo")
  ServerInfo getServerInfo();

  // ---- user administration (issue 18): administrators only, while the server runs ----------
  // Every operation answers AccessDeniedFault to a caller who is not an administrator. Passwords
  // travel in the body (use TLS, as the server's authentication requires) and are stored only as
  // hashes; the account rules are those of gantry-server user.

  /** Every user account, by name. */
  @WebMethod
  @WebResult(name = "user")
  List<UserInfo> listUsers() throws AccessDeniedFault;

  /**
   * Adds a user.
   *
   * @param role "admin" or "user"
   * @param osAccount the OS account the user's jobs run under; absent: jobs.default-os-account
   */
  @WebMethod
  @WebResult(name = "user")
  UserInfo addUser(
      @WebParam(name = "name") String name,
      @WebParam(name = "password") String password,
      @WebParam(name = "role") String role,
      @WebParam(name = "osAccount") String osAccount)
      throws AccessDeniedFault, UserAccountFault;

  /** Removes a user: their jobs stay, their sessions and logins stop working at once. */
  @WebMethod
  @WebResult(name = "user")
  UserInfo removeUser(@WebParam(name = "name") String name)
      throws AccessDeniedFault, UserAccountFault;

  /** Replaces a user's password. */
  @WebMethod
  @WebResult(name = "user")
  UserInfo setUserPassword(
      @WebParam(name = "name") String name, @WebParam(name = "password") String password)
      throws AccessDeniedFault, UserAccountFault;

  /** Makes a user an administrator ("admin") or a plain user ("user"). */
  @WebMethod
  @WebResult(name = "user")
  UserInfo setUserRole(@WebParam(name = "name") String name, @WebParam(name = "role") String role)
      throws AccessDeniedFault, UserAccountFault;

  /** Maps a user's jobs to an OS account; absent: back to jobs.default-os-account. */
  @WebMethod
  @WebResult(name = "user")
  UserInfo setUserOsAccount(
      @WebParam(name = "name") String name, @WebParam(name = "osAccount") String osAccount)
      throws AccessDeniedFault, UserAccountFault;

  // ---- job templates, resubmission and schedules (issue 18) ----

  /**
   * Submits the job again as a new job: the same stored description and parameter values, each
   * value given here replacing the stored one. The new job's status names the original. Only the
   * owner (or an administrator) may resubmit; the new job belongs to the original's owner.
   *
   * @return the new job's id
   */
  @WebMethod
  @WebResult(name = "newJobId") // not jobId: generated clients would make that an in-out holder
  String resubmitJob(
      @WebParam(name = "jobId") String jobId,
      @WebParam(name = "parameter") List<ParameterValue> parameters)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault;

  /**
   * Reruns only the failed or lost tasks of a task farm that ended, as a new job with the same
   * stored description and parameter values: its farm makes the same tasks, carries each task that
   * succeeded in the original (with the same inputs) over into its result file with {@code
   * attempts} 0, and runs the others. The new job's status names the original. Only the owner (or
   * an administrator) may rerun; the new job belongs to the original's owner.
   *
   * @return the new job's id
   */
  @WebMethod
  @WebResult(name = "newJobId")
  String resubmitFailedTasks(@WebParam(name = "jobId") String jobId)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault, JobStateFault;

  /**
   * Runs a chain again from one of its stages (docs/workflows.md): the chain is the jobs given and
   * every job of the caller's they read from ({@code gantry-job:}) or wait for ({@code gx:After},
   * {@code gx:AfterAny}); the job named {@code fromStage} (its JobName) and every job of the chain
   * downstream of it are submitted again, each referring to the new jobs instead of the old, while
   * the jobs upstream are not run again and their outputs are reused. The jobs run again must have
   * ended, and those reused must have SUCCEEDED. All or nothing: when one cannot be submitted,
   * those already submitted are cancelled.
   *
   * @return the jobs run again, in the order they were submitted
   */
  @WebMethod
  @WebResult(name = "rerun")
  List<RerunStage> resubmitChain(
      @WebParam(name = "jobId") List<String> jobIds, @WebParam(name = "fromStage") String fromStage)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault, JobStateFault;

  /**
   * Adds a schedule of the caller's: the job (a template, with values that may use the scheduled
   * time, e.g. <code>${schedule.date}</code>) is submitted as the caller at every time of the cron
   * expression. The job is validated now, for the next time; an invalid one is refused.
   *
   * @param cron a Unix cron expression, e.g. {@code 30 18 * * 1-5}
   * @param timeZone an IANA zone id, e.g. {@code Europe/London}; the server's zone when absent
   * @param missedRuns what the server does at start with times it missed; RUN_ONCE when absent
   * @param calendar a holiday calendar of the server's ({@code calendar.NAME.*} settings): no job
   *     runs at a time whose date (in {@code timeZone}) it holds, and the skipped time is noted on
   *     the schedule; none when absent
   */
  @WebMethod
  @WebResult(name = "schedule")
  ScheduleInfo addSchedule(
      @WebParam(name = "name") String name,
      @WebParam(name = "cron") String cron,
      @WebParam(name = "timeZone") String timeZone,
      @WebParam(name = "missedRuns") MissedRunsName missedRuns,
      @WebParam(name = "jobDefinition") JobDocument jobDefinition,
      @WebParam(name = "calendar") String calendar)
      throws InvalidJobFault;

  /**
   * The caller's schedules by name; every user's (by owner, then name) with {@code allUsers}, for
   * administrators only.
   */
  @WebMethod
  @WebResult(name = "schedule")
  List<ScheduleInfo> listSchedules(@WebParam(name = "allUsers") boolean allUsers)
      throws AccessDeniedFault;

  /** Stops a schedule submitting jobs until it is resumed. */
  @WebMethod
  @WebResult(name = "schedule")
  ScheduleInfo pauseSchedule(@WebParam(name = "scheduleId") String scheduleId);

  /**
   * Submits a schedule's job now, as its owner, as if one of its times had come now (its {@code
   * ${...}} variables from now); the schedule's own times, paused or not, are unchanged. Returns
   * the new job's id.
   */
  @WebMethod
  @WebResult(name = "jobId")
  String runSchedule(@WebParam(name = "scheduleId") String scheduleId)
      throws InvalidJobFault, LimitExceededFault;

  /** Resumes a paused schedule from now: times passed while it was paused do not run. */
  @WebMethod
  @WebResult(name = "schedule")
  ScheduleInfo resumeSchedule(@WebParam(name = "scheduleId") String scheduleId);

  /** Removes a schedule; the jobs it submitted stay. Answers the schedule as it was. */
  @WebMethod
  @WebResult(name = "schedule")
  ScheduleInfo removeSchedule(@WebParam(name = "scheduleId") String scheduleId);

  /**
   * Adds a standing notification subscription of the caller's: the chosen events of the caller's
   * jobs and schedules (or, with {@code schedule}, of that schedule of the caller's and the jobs it
   * submits) go to one webhook (an https URL on notify.allowed-hosts) or mailbox (on
   * notify.mail-allowed), as a job's {@code gx:Notify} sends them.
   *
   * @param target an https:// URL, or an e-mail address
   * @param events event types without their io.gantry. prefix, e.g. job.failed; none: every event
   * @param schedule the name or id of one of the caller's schedules, or absent
   */
  @WebMethod
  @WebResult(name = "subscription")
  NotifySubscriptionInfo addNotifySubscription(
      @WebParam(name = "target") String target,
      @WebParam(name = "event") List<String> events,
      @WebParam(name = "schedule") String schedule);

  /**
   * The caller's notification subscriptions; every user's (by owner) with {@code allUsers}, for
   * administrators only.
   */
  @WebMethod
  @WebResult(name = "subscription")
  List<NotifySubscriptionInfo> listNotifySubscriptions(
      @WebParam(name = "allUsers") boolean allUsers) throws AccessDeniedFault;

  /** Removes a notification subscription of the caller's (anyone's, for an administrator). */
  @WebMethod
  @WebResult(name = "subscription")
  NotifySubscriptionInfo removeNotifySubscription(
      @WebParam(name = "subscriptionId") String subscriptionId);

  // --- stage-in cache administration (issue 16): administrators only ---

  @WebMethod
  @WebResult(name = "cache")
  StageInCacheList listStageInCache() throws AccessDeniedFault;

  /**
   * Removes the entry with {@code key}, or every entry without one; returns how many went. Jobs
   * that link an entry keep their file.
   */
  @WebMethod
  @WebResult(name = "removed")
  int clearStageInCache(@WebParam(name = "key") String key) throws AccessDeniedFault;

  // --- accounting (docs/operations.md, "Accounting and quotas"): administrators only ---

  /**
   * What jobs that ended at or after {@code from} and before {@code to} (ISO-8601 instants, e.g.
   * 2026-11-01T00:00:00Z) used, one line per user or per project ({@code by}: user, the default, or
   * project).
   */
  @WebMethod
  @WebResult(name = "report")
  AccountingReport getAccounting(
      @WebParam(name = "from") String from,
      @WebParam(name = "to") String to,
      @WebParam(name = "by") String by)
      throws AccessDeniedFault;

  // --- session tokens (gantry login): issue, list, revoke ---

  /**
   * Issues a session token to the caller, who must have authenticated with their password (HTTP
   * Basic or a UsernameToken), not with a token: a token cannot extend itself. The answer is the
   * only place the secret appears; send it as {@code Authorization: Bearer TOKEN}. It is valid for
   * the server's {@code auth.token-lifetime}.
   *
   * @param description what the token is for, e.g. "gantry CLI on host h" (listings show it)
   */
  @WebMethod
  @WebResult(name = "sessionToken")
  SessionToken issueSessionToken(@WebParam(name = "description") String description)
      throws AccessDeniedFault;

  /**
   * The caller's live session tokens, without their secrets; with {@code allUsers}, every user's
   * (administrators only).
   */
  @WebMethod
  @WebResult(name = "sessionToken")
  List<SessionToken> listSessionTokens(@WebParam(name = "allUsers") boolean allUsers)
      throws AccessDeniedFault;

  /**
   * Revokes a session token by its id: the caller's own, or any user's for an administrator.
   *
   * @return false when there is no such token (for this caller)
   */
  @WebMethod
  @WebResult(name = "revoked")
  boolean revokeSessionToken(@WebParam(name = "tokenId") String tokenId);

  // --- job files (gantry get) ---

  /**
   * A byte range of a file in the job's directory (a result the program wrote), at most 1 MiB per
   * call: a regular file inside the job directory only, never through a link; the job's owner or an
   * administrator only.
   *
   * @param path relative to the job directory, {@code /}-separated, without {@code ..}
   */
  @WebMethod
  @WebResult(name = "file")
  JobFileChunk getJobFile(
      @WebParam(name = "jobId") String jobId,
      @WebParam(name = "path") String path,
      @WebParam(name = "offset") long offset,
      @WebParam(name = "maxBytes") int maxBytes)
      throws JobNotFoundFault;

  /**
   * The files of the job's directory with their sizes, by path, for finding what to fetch with
   * {@link #getJobFile}: regular files, and links and other entries marked as such (listed, never
   * followed); directories are implied by the paths. The job's owner or an administrator only.
   */
  @WebMethod
  @WebResult(name = "file")
  List<JobFileEntry> listJobFiles(@WebParam(name = "jobId") String jobId) throws JobNotFoundFault;

  // --- worker sessions (issue 15): long-lived workers fed task messages (docs/task-farms.md) ---

  /**
   * Opens a session of long-lived workers for the caller: {@code workers} launchers in the caller's
   * sandbox and OS account, each starting the program once and feeding it task messages on its
   * standard input, one line each (docs/task-farms.md, "Sessions"). Name either {@code application}
   * (an application the server offers to the caller, run as configured) or {@code executable} (one
   * the sandbox shows, under jobs.allowed-executable-roots) with its {@code arguments}.
   *
   * @param workers 1 to worker-session.max-workers
   * @param window messages a worker holds unanswered, 1 to 4096; absent: 256 (1 suits tasks of
   *     seconds, where a waiting message should go to the first worker free)
   */
  @WebMethod
  @WebResult(name = "session")
  WorkerSessionInfo openWorkerSession(
      @WebParam(name = "application") String application,
      @WebParam(name = "executable") String executable,
      @WebParam(name = "argument") List<String> arguments,
      @WebParam(name = "workers") int workers,
      @WebParam(name = "window") Integer window)
      throws LimitExceededFault;

  /**
   * Queues a batch of task messages (at most 100000) on the caller's session; answers their ids, in
   * the batch's order. The batch is taken whole or not at all.
   */
  @WebMethod
  @WebResult(name = "messageId")
  List<Long> submitWorkerMessages(
      @WebParam(name = "sessionId") String sessionId,
      @WebParam(name = "message") List<WorkerMessage> messages)
      throws LimitExceededFault;

  /**
   * Takes completion messages of the caller's session as they arrive: waits up to {@code
   * waitSeconds} (0 to 20) for the first, then answers it with every other one ready, {@code
   * maxCompletions} (1 to 100000) at most. A taken completion is not answered again.
   */
  @WebMethod
  @WebResult(name = "completions")
  WorkerCompletions takeWorkerCompletions(
      @WebParam(name = "sessionId") String sessionId,
      @WebParam(name = "maxCompletions") int maxCompletions,
      @WebParam(name = "waitSeconds") int waitSeconds);

  /** A session of the caller (an administrator: any session). */
  @WebMethod
  @WebResult(name = "session")
  WorkerSessionInfo getWorkerSession(@WebParam(name = "sessionId") String sessionId);

  /** The caller's open sessions; with {@code allUsers}, every user's (administrators only). */
  @WebMethod
  @WebResult(name = "session")
  List<WorkerSessionInfo> listWorkerSessions(@WebParam(name = "allUsers") boolean allUsers)
      throws AccessDeniedFault;

  /**
   * Closes a session of the caller (an administrator: any session): its workers' input is closed
   * and they are given 2 s to exit. Messages not yet answered, and completions not taken, are
   * dropped. Answers the session as it was at the end.
   */
  @WebMethod
  @WebResult(name = "session")
  WorkerSessionInfo closeWorkerSession(@WebParam(name = "sessionId") String sessionId);

  // --- the morning risk view (docs/risk-view.md): VaR results from the results data sources ---

  /**
   * Every VaR figure of business date {@code businessDate} (YYYY-MM-DD) for {@code node} and the
   * nodes below it (every node when absent), from every run, superseded figures naming the rerun
   * that replaced them. Only the results data sources the caller may use are read.
   */
  @WebMethod
  @WebResult(name = "figure")
  List<VarFigureInfo> getVarSummary(
      @WebParam(name = "businessDate") String businessDate, @WebParam(name = "node") String node);

  /**
   * Every VaR figure of {@code node} alone on business dates {@code from} to {@code to}
   * (YYYY-MM-DD, inclusive), from every run, superseded figures marked.
   */
  @WebMethod
  @WebResult(name = "figure")
  List<VarFigureInfo> getVarHistory(
      @WebParam(name = "node") String node,
      @WebParam(name = "from") String from,
      @WebParam(name = "to") String to);

  /**
   * The VaR backtests of {@code node} (that node alone) on business date {@code businessDate}
   * (YYYY-MM-DD), or on the latest date a results data source has for it when absent: every run of
   * the backtest job, superseded ones naming the rerun that replaced them.
   */
  @WebMethod
  @WebResult(name = "backtest")
  List<BacktestInfo> getVarBacktest(
      @WebParam(name = "node") String node, @WebParam(name = "businessDate") String businessDate);

  /**
   * Why the VaR of {@code node} (that node alone) changed from business date {@code from} to {@code
   * to} (YYYY-MM-DD, from before to): for each results data source, confidence level and method
   * with a current figure on both dates, the change split into new and matured positions, quantity
   * changes and market moves of held positions and a residual, adding up to the change; the {@code
   * top} (1 to 1000, 10 when absent) positions and risk factors that moved it most.
   */
  @WebMethod
  @WebResult(name = "explain")
  List<VarExplainInfo> getVarExplain(
      @WebParam(name = "node") String node,
      @WebParam(name = "from") String from,
      @WebParam(name = "to") String to,
      @WebParam(name = "top") Integer top);

  /**
   * The current VaR figures of business date {@code businessDate} for {@code node} and the nodes
   * below it (every node when absent) that have a VaR limit in force, with their usage in percent;
   * only those that breach their limit when {@code breachesOnly} is true.
   */
  @WebMethod
  @WebResult(name = "limit")
  List<VarLimitInfo> getVarLimits(
      @WebParam(name = "businessDate") String businessDate,
      @WebParam(name = "node") String node,
      @WebParam(name = "breachesOnly") boolean breachesOnly);

  /**
   * The exceptions of the VaR backtests {@link #getVarBacktest} answers for the same node and
   * business date: each day on which the P&amp;L exceeded the VaR, with both figures, from every
   * run of the backtest job, superseded ones naming the rerun that replaced them.
   */
  @WebMethod
  @WebResult(name = "exception")
  List<BacktestExceptionInfo> getVarBacktestExceptions(
      @WebParam(name = "node") String node, @WebParam(name = "businessDate") String businessDate);
}
