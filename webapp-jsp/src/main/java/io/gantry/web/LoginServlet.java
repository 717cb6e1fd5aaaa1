package io.gantry.web;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The login form, with the same user accounts as the SOAP API. A successful login starts a new
 * session (the one the form was served in is dropped, so a session id planted before login is worth
 * nothing) and goes to the job list; a failed one says so without telling whether the user exists.
 * After repeated failures the server's login throttle makes the user wait, and the form says for
 * how long (HTTP 429).
 */
final class LoginServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final transient Optional<UserAuthenticator> authenticator;

  LoginServlet(Optional<UserAuthenticator> authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (authenticator.isEmpty() || SignedInUser.in(request.getSession(false)) != null) {
      response.sendRedirect(request.getContextPath() + "/jobs");
      return;
    }
    Pages.render(request, response, "login", "Log in");
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (authenticator.isEmpty()) {
      response.sendRedirect(request.getContextPath() + "/jobs");
      return;
    }
    String name = request.getParameter("username");
    String password = request.getParameter("password");
    Duration wait =
        name == null
            ? Duration.ZERO
            : authenticator.get().waitBeforeLogin(name.strip(), request.getRemoteAddr());
    if (!wait.isZero()) {
      long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
      response.setStatus(429);
      response.setHeader("Retry-After", Long.toString(seconds));
      request.setAttribute("throttled", seconds);
      request.setAttribute("username", name);
      Pages.render(request, response, "login", "Log in");
      return;
    }
    Optional<UserAccount> account =
        name == null || password == null
            ? Optional.empty()
            : authenticator
                .get()
                .authenticate(name.strip(), password.toCharArray(), request.getRemoteAddr());
    if (account.isEmpty()) {
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      request.setAttribute("failed", true);
      request.setAttribute("username", name);
      Pages.render(request, response, "login", "Log in");
      return;
    }
    HttpSession old = request.getSession(false);
    if (old != null) {
      old.invalidate();
    }
    HttpSession session = request.getSession(true);
    new SignedInUser(account.get().name(), account.get().admin()).storeIn(session);
    CsrfToken.of(session);
    response.sendRedirect(request.getContextPath() + "/jobs");
  }
}
