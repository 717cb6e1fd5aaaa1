package io.gantry.server.internal.http;

import io.gantry.server.internal.security.SessionTokenAuthenticator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Session tokens (RFC 6750 bearer tokens, {@code Authorization: Bearer gantry_st_...}) in front of
 * {@code /services/*}, beside HTTP Basic: a request with a live token goes on as its user, without
 * a password check; one with a dead token (expired, revoked, its user removed or their password
 * changed) gets 401 with {@code WWW-Authenticate: Bearer error="invalid_token"}, which tells a
 * client to log in again rather than to ask for a password. The token never reaches a log: a
 * refusal is logged with the first digits of its hash.
 */
final class SessionTokenFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(SessionTokenFilter.class);
  private final transient SessionTokenAuthenticator tokens;

  SessionTokenFilter(SessionTokenAuthenticator tokens) {
    this.tokens = tokens;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String header = request.getHeader("Authorization");
    if (header == null
        || !header.regionMatches(true, 0, "Bearer ", 0, 7)
        || request.getUserPrincipal() != null) { // an access token, already checked
      chain.doFilter(request, response);
      return;
    }
    String secret = header.substring(7).strip();
    SessionTokenAuthenticator.Check check = tokens.check(secret);
    if (check.account().isEmpty()) {
      log.warn(
          "refused session token {} from {}: {}",
          SessionTokenAuthenticator.logName(secret),
          request.getRemoteAddr(),
          check.refusal());
      response.setHeader(
          "WWW-Authenticate",
          "Bearer realm=\"gantry\", error=\"invalid_token\", error_description=\""
              + check.refusal().replace("\"", "'")
              + "\"");
      SoapFaultAnswer.send(request, response, HttpServletResponse.SC_UNAUTHORIZED, check.refusal());
      return;
    }
    chain.doFilter(
        new AuthenticatedRequest(
            request,
            AccountPrincipal.of(check.account().get()),
            SessionTokenAuthenticator.AUTH_TYPE),
        response);
  }
}
