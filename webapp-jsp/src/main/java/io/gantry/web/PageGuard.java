package io.gantry.web;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.web.RefusedRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * In front of every page of the web application (not the SOAP API, which authenticates its own
 * way):
 *
 * <ol>
 *   <li>security headers on every answer: a content security policy that allows nothing from
 *       outside the server and no inline script, no framing, no MIME sniffing, no caching of pages,
 *       HSTS over HTTPS;
 *   <li>a request from another origin that changes something is refused (the {@code Origin} header,
 *       where the browser sends one), and so is any POST without the session's CSRF token;
 *   <li>a request without a signed-in user goes to the login page, except the login page itself and
 *       the static files; the user's account is looked up again, so a removed user is out.
 * </ol>
 *
 * On a server without authentication (loopback only) everyone is the single user {@code local}.
 */
final class PageGuard extends HttpFilter {
  private static final long serialVersionUID = 1L;
  static final String LOCAL_USER = "local";
  private static final String POLICY =
      "default-src 'self'; img-src 'self' data:; style-src 'self';"
          + " script-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";
  private final transient Optional<UserAuthenticator> authenticator;
  private final boolean secure;

  /** The largest form body (url-encoded) a page accepts; the servlet context is set to the same. */
  static final int MAX_FORM_BYTES = 1024 * 1024;

  private static boolean multipart(HttpServletRequest request) {
    String type = request.getContentType();
    return type != null && type.strip().toLowerCase(java.util.Locale.ROOT).startsWith("multipart/");
  }

  PageGuard(Optional<UserAuthenticator> authenticator, boolean secure) {
    this.authenticator = authenticator;
    this.secure = secure;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    if (path.startsWith("/services/")) {
      chain.doFilter(request, response); // the SOAP API: Basic or WS-Security, no sessions
      return;
    }
    addSecurityHeaders(response, path.startsWith("/static/"));
    if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
      // refusals drain a bounded part of the body first, so that the browser reads the page
      if (!multipart(request) && request.getContentLengthLong() > MAX_FORM_BYTES) {
        RefusedRequest.answer(
            request,
            response,
            () ->
                response.sendError(
                    HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                    "refused: the form is larger than "
                        + MAX_FORM_BYTES
                        + " bytes, the most a page of Gantry accepts; upload a long job description as a JSDL file"));
        return;
      }
      if (!sameOrigin(request) || !CsrfToken.matches(request)) {
        RefusedRequest.answer(
            request,
            response,
            () ->
                response.sendError(
                    HttpServletResponse.SC_FORBIDDEN,
                    "refused: the form is not from this server or has expired; reload the page and try again"));
        return;
      }
    }
    if (path.startsWith("/static/") || path.equals("/login")) {
      chain.doFilter(request, response);
      return;
    }
    if (signedIn(request).isEmpty()) {
      response.sendRedirect(request.getContextPath() + "/login");
      return;
    }
    chain.doFilter(request, response);
  }

  /** The session's user, still an account with the same role, or a fresh local user. */
  private Optional<SignedInUser> signedIn(HttpServletRequest request) {
    if (authenticator.isEmpty()) {
      SignedInUser local = new SignedInUser(LOCAL_USER, true);
      local.storeIn(request.getSession(true));
      return Optional.of(local);
    }
    HttpSession session = request.getSession(false);
    SignedInUser user = SignedInUser.in(session);
    if (user == null) {
      return Optional.empty();
    }
    Optional<UserAccount> account = authenticator.get().find(user.name());
    if (account.isEmpty()) {
      session.invalidate();
      return Optional.empty();
    }
    if (account.get().admin() != user.admin()) {
      user = new SignedInUser(user.name(), account.get().admin());
      user.storeIn(session);
    }
    return Optional.of(user);
  }

  private static boolean sameOrigin(HttpServletRequest request) {
    String origin = request.getHeader("Origin");
    if (origin == null) {
      return true; // not sent by every browser on every request; the CSRF token still decides
    }
    try {
      URI uri = URI.create(origin);
      int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
      return request.getScheme().equals(uri.getScheme())
          && port == request.getServerPort()
          && request.getServerName().equalsIgnoreCase(uri.getHost());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private void addSecurityHeaders(HttpServletResponse response, boolean staticFile) {
    response.setHeader("Content-Security-Policy", POLICY);
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "same-origin");
    if (!staticFile) {
      response.setHeader("Cache-Control", "no-store");
    }
    if (secure) {
      response.setHeader("Strict-Transport-Security", "max-age=31536000");
    }
  }
}
