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
}
