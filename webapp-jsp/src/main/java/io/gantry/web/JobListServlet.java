package io.gantry.web;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.JobList;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.JobStateName;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The user's jobs, newest first, optionally only those in one state; administrators may ask for
 * every user's ({@code all=1}). Paged by {@code page} (50 a page).
 */
final class JobListServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  static final int PAGE_SIZE = 50;
  private final transient JobManagementService service;

  JobListServlet(JobManagementService service) {
    this.service = service;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String state = request.getParameter("state");
    List<JobStateName> states = List.of();
    if (state != null && !state.isBlank()) {
      try {
        states = List.of(JobStateName.valueOf(state));
      } catch (IllegalArgumentException e) {
        Pages.error(
            request, response, HttpServletResponse.SC_BAD_REQUEST, "unknown job state " + state);
        return;
      }
    }
    boolean all = "1".equals(request.getParameter("all")) && SignedInUser.of(request).admin();
    int page = Math.max(0, parsePage(request.getParameter("page")));
    JobList list;
    try {
      list = Pages.jobsOf(service, request).listJobs(states, page * PAGE_SIZE, PAGE_SIZE, all);
    } catch (AccessDeniedFault e) {
      Pages.error(request, response, HttpServletResponse.SC_FORBIDDEN, e.getMessage());
      return;
    }
    request.setAttribute("jobs", list.jobs.stream().map(JobRow::of).toList());
    request.setAttribute("total", list.total);
    request.setAttribute("page", page);
    request.setAttribute("pages", Math.max(1, (list.total + PAGE_SIZE - 1) / PAGE_SIZE));
    request.setAttribute("state", state == null ? "" : state);
    request.setAttribute("all", all);
    request.setAttribute("states", Arrays.stream(JobStateName.values()).map(Enum::name).toList());
    Pages.render(request, response, "jobs", "Jobs");
  }

  private static int parsePage(String value) {
    try {
      return value == null ? 0 : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
