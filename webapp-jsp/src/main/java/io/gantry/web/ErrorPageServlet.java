package io.gantry.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The page for every error status, in place of Jetty's own, which would print the exception's
 * message: an internal error says only that it is in the server's log. The messages of 4xx answers
 * are Gantry's own words (given to {@code sendError}) and are shown.
 */
final class ErrorPageServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer i ? i : HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
    Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
    String text =
        switch (status) {
          case HttpServletResponse.SC_NOT_FOUND -> "There is no such page.";
          case HttpServletResponse.SC_METHOD_NOT_ALLOWED ->
              "This page does not take that kind of request.";
          default ->
              status >= 500 || message == null || message.toString().isBlank()
                  ? "The server could not answer this request; the reason is in its log."
                  : message.toString();
        };
    request.setAttribute("message", text);
    response.setStatus(status);
    Pages.render(request, response, "error", status >= 500 ? "Server error" : "Refused");
  }
}
