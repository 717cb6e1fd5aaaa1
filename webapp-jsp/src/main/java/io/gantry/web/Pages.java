package io.gantry.web;

import io.gantry.server.api.JobManagementService;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * How servlets answer with a page: they put what the page shows into request attributes and forward
 * to {@code /WEB-INF/jsp/NAME.jsp}, which the layout fragments wrap. Every page gets {@code title},
 * {@code user} (a {@link SignedInUser}) and {@code csrf} (the form token).
 */
final class Pages {
  private Pages() {}

  static void render(
      HttpServletRequest request, HttpServletResponse response, String page, String title)
      throws ServletException, IOException {
    request.setAttribute("title", title);
    request.setAttribute("user", SignedInUser.in(request.getSession(false)));
    request.setAttribute("csrf", CsrfToken.of(request.getSession(true)));
    response.setContentType("text/html; charset=UTF-8");
    request.getRequestDispatcher("/WEB-INF/jsp/" + page + ".jsp").forward(request, response);
  }

  /** The job-management service acting for the request's signed-in user. */
  static JobManagementService jobsOf(JobManagementService service, HttpServletRequest request) {
    SignedInUser user = SignedInUser.of(request);
    return service.actingFor(user.name(), user.admin());
  }

  /** Answers with a plain page naming what is wrong, with the status code. */
  static void error(
      HttpServletRequest request, HttpServletResponse response, int status, String message)
      throws ServletException, IOException {
    response.setStatus(status);
    request.setAttribute("message", message);
    render(
        request,
        response,
        "error",
        status == HttpServletResponse.SC_NOT_FOUND ? "Not found" : "Error");
  }
}
