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

  /** Validates a job description without queueing it; returns every problem found. */
  @WebMethod
  @WebResult(name = "validation")
  ValidationResult validateJob(@WebParam(name = "jobDefinition") JobDocument jobDefinition);

  @WebMethod
  @WebResult(name = "status")
  JobStatusInfo getJobStatus(@WebParam(name = "jobId") String jobId) throws JobNotFoundFault;

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

  /** Version, limits, and the public key for encrypting passwords in job descriptions. */
  @WebMethod
  @WebResult(name = "serverInfo")
  ServerInfo getServerInfo();

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
}
