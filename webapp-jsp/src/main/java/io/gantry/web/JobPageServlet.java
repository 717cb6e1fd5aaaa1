package io.gantry.web;

import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputStreamName;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.Serializable;

/**
 * Everything under {@code /jobs/{id}}:
 *
 * <ul>
 *   <li>{@code GET /jobs/{id}}: the job page (status, timeline, staging manifest, output tails,
 *       cancel and kill);
 *   <li>{@code GET /jobs/{id}/results}: the VaR results ({@link JobResultsPage});
 *   <li>{@code GET /jobs/{id}/definition}: the redacted job definition ({@link JobDefinitionPage});
 *   <li>{@code POST /jobs/{id}/cancel}, {@code /kill}, {@code /hold}, {@code /release} and {@code
 *       /retry-stage-out}: answered with a redirect to the job page, which shows what happened
 *       once;
 *   <li>{@code POST /jobs/{id}/resubmit}: the same description and values as a new job, answered
 *       with a redirect to the new job's page.
 * </ul>
 *
 * A job that does not exist and another user's job get the same 404 page, for every page and
 * action: the service's {@link JobNotFoundFault} does not tell them apart, and neither do we.
 */
final class JobPageServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final String MESSAGE = "gantry.job-message";
  private final transient JobManagementService service;

  JobPageServlet(JobManagementService service) {
    this.service = service;
  }

  /** The job page's buttons: the path each posts to, and what the message after it says. */
  private static final java.util.Map<String, String> ACTIONS =
      java.util.Map.of(
          "cancel", "Cancelled",
          "kill", "Killed",
          "hold", "Held",
          "release", "Released",
          "retry-stage-out", "Stage-out retried");

  /** What a cancel or kill did, shown once on the job page after the redirect. */
  record ActionMessage(String jobId, String text, boolean error) implements Serializable {}

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String[] path = parts(request);
    JobManagementService jobs = Pages.jobsOf(service, request);
    try {
      if (path.length == 1) {
        jobPage(request, response, jobs, path[0]);
      } else if (path.length == 2 && path[1].equals("results")) {
        JobResultsPage.show(request, response, jobs, path[0]);
      } else if (path.length == 2 && path[1].equals("definition")) {
        JobDefinitionPage.show(request, response, jobs, path[0]);
      } else {
        notFound(request, response, path.length == 0 ? "" : path[0]);
      }
    } catch (JobNotFoundFault e) {
      notFound(request, response, path[0]);
    }
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String[] path = parts(request);
    if (path.length == 2 && path[1].equals("resubmit")) {
      resubmit(request, response, Pages.jobsOf(service, request), path[0]);
      return;
    }
    if (path.length != 2 || !ACTIONS.containsKey(path[1])) {
      notFound(request, response, path.length == 0 ? "" : path[0]);
      return;
    }
    String id = path[0];
    JobManagementService jobs = Pages.jobsOf(service, request);
    ActionMessage message;
    try {
      JobStatusInfo after =
          switch (path[1]) {
            case "cancel" -> jobs.cancelJob(id);
            case "kill" -> jobs.killJob(id);
            case "hold" -> jobs.holdJob(id);
            case "release" -> jobs.releaseJob(id);
            default -> jobs.retryStageOut(id);
          };
      message =
          new ActionMessage(
              id, ACTIONS.get(path[1]) + ": the job is now " + after.state + ".", false);
    } catch (JobNotFoundFault e) {
      notFound(request, response, id);
      return;
    } catch (JobStateFault e) {
      message = new ActionMessage(id, "Not done: " + e.getMessage() + ".", true);
    }
    request.getSession(true).setAttribute(MESSAGE, message);
    response.sendRedirect(request.getContextPath() + "/jobs/" + id);
  }

  /**
   * Runs the job again with its stored description and values (resubmitJob): the new job's page
   * tells where it came from; a job that is not valid any more stays on its page with the reasons.
   */
  private static void resubmit(
      HttpServletRequest request,
      HttpServletResponse response,
      JobManagementService jobs,
      String id)
      throws ServletException, IOException {
    ActionMessage message;
    String target = id;
    try {
      target = jobs.resubmitJob(id, java.util.List.of());
      message = new ActionMessage(target, "Resubmitted job " + id + " as this new job.", false);
    } catch (JobNotFoundFault e) {
      notFound(request, response, id);
      return;
    } catch (io.gantry.server.api.InvalidJobFault e) {
      String reasons =
          e.getFaultInfo().problems.stream()
              .filter(p -> "ERROR".equals(p.severity))
              .map(p -> p.message)
              .reduce((a, b) -> a + "; " + b)
              .orElse(e.getMessage());
      message = new ActionMessage(id, "Not resubmitted: " + reasons + ".", true);
    } catch (io.gantry.server.api.LimitExceededFault e) {
      message = new ActionMessage(id, "Not resubmitted: " + e.getMessage() + ".", true);
    }
    request.getSession(true).setAttribute(MESSAGE, message);
    response.sendRedirect(request.getContextPath() + "/jobs/" + target);
  }

  private void jobPage(
      HttpServletRequest request,
      HttpServletResponse response,
      JobManagementService jobs,
      String id)
      throws JobNotFoundFault, ServletException, IOException {
    JobStatusInfo status = jobs.getJobStatus(id);
    JobRow job = JobRow.of(status);
    // a template's values and where the job came from (a resubmission, a schedule)
    request.setAttribute(
        "parameters",
        status.parameters == null
            ? java.util.List.of()
            : status.parameters.stream().map(p -> p.name + " = " + p.value).toList());
    request.setAttribute("resubmittedFrom", status.resubmittedFrom);
    request.setAttribute("scheduleName", status.schedule);
    request.setAttribute(
        "scheduledFor", status.scheduledFor == null ? null : status.scheduledFor.toString());
    JobAudit audit = jobs.getJobAudit(id);
    JobResults manifest = jobs.getJobResults(id);
    request.setAttribute("job", job);
    request.setAttribute("timeline", audit.entries.stream().map(TimelineRow::of).toList());
    request.setAttribute("stagedIn", manifest.stagedIn.stream().map(StagedRow::of).toList());
    request.setAttribute("stagedOut", manifest.stagedOut.stream().map(StagedRow::of).toList());
    request.setAttribute("stdout", OutputTail.of(jobs, id, OutputStreamName.STDOUT));
    request.setAttribute("stderr", OutputTail.of(jobs, id, OutputStreamName.STDERR));
    request.setAttribute(
        "cancellable",
        switch (job.state()) {
          case "QUEUED", "STAGING_IN", "STAGED" -> true;
          default -> false;
        });
    request.setAttribute("killable", job.state().equals("RUNNING"));
    request.setAttribute("hasResults", JobResultsPage.hasResults(jobs, id));
    ActionMessage message = takeMessage(request.getSession(false), id);
    if (message != null) {
      request.setAttribute("actionMessage", message.text());
      request.setAttribute("actionFailed", message.error());
    }
    Pages.render(request, response, "job", job.name().isEmpty() ? "Job " + id : job.name());
  }

  private static ActionMessage takeMessage(HttpSession session, String id) {
    if (session == null
        || !(session.getAttribute(MESSAGE) instanceof ActionMessage m)
        || !m.jobId().equals(id)) {
      return null;
    }
    session.removeAttribute(MESSAGE);
    return m;
  }

  /** The same answer for an unknown job and another user's. */
  static void notFound(HttpServletRequest request, HttpServletResponse response, String id)
      throws ServletException, IOException {
    Pages.error(
        request,
        response,
        HttpServletResponse.SC_NOT_FOUND,
        "There is no job "
            + (id.length() > 64 ? id.substring(0, 64) + "…" : id)
            + " that you can see.");
  }

  private static String[] parts(HttpServletRequest request) {
    String info = request.getPathInfo();
    if (info == null || info.length() <= 1) {
      return new String[0];
    }
    return info.substring(1).split("/", -1);
  }
}
