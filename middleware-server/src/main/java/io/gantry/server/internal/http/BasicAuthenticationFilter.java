package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * HTTP Basic authentication (RFC 7617) for simple SOAP clients (curl, zeep), in front of {@code
 * /services/*}. A request with Basic credentials is let through only if they are right, and then
 * carries the user as its principal; wrong ones get 401 with a challenge. A request without them
 * goes on to the SOAP stack, where a WS-Security UsernameToken may authenticate it and {@link
 * AuthenticationRequiredInterceptor} refuses it if nothing did.
 *
 * <p>A refusal is a SOAP fault ({@link SoapFaultAnswer}), answered before the body is read (only a
 * bounded amount is drained so that the client reads the answer, see {@link
 * io.gantry.server.web.RefusedRequest}), and directly, not through the web face's error pages,
 * which would open a web session for every failed login.
 */
final class BasicAuthenticationFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  static final String CHALLENGE = "Basic realm=\"gantry\", charset=\"UTF-8\"";
  private final transient UserAuthenticator authenticator;

  BasicAuthenticationFilter(UserAuthenticator authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String header = request.getHeader("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      chain.doFilter(request, response);
      return;
    }
    String[] login = decode(header.substring(6).strip());
    Duration wait =
        login == null
            ? Duration.ZERO
            : authenticator.waitBeforeLogin(login[0], request.getRemoteAddr());
    if (!wait.isZero()) {
      // too many failures for this user from this address: say when to try again, check nothing
      response.setHeader("Retry-After", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
      SoapFaultAnswer.send(request, response, 429, "too many failed logins; try again later");
      return;
    }
    Optional<UserAccount> account =
        login == null
            ? Optional.empty()
            : authenticator.authenticate(login[0], login[1].toCharArray(), request.getRemoteAddr());
    if (account.isEmpty()) {
      response.setHeader("WWW-Authenticate", CHALLENGE);
      SoapFaultAnswer.send(
          request, response, HttpServletResponse.SC_UNAUTHORIZED, "unknown user or wrong password");
      return;
    }
    chain.doFilter(
        new AuthenticatedRequest(
            request, AccountPrincipal.of(account.get()), HttpServletRequest.BASIC_AUTH),
        response);
  }

  /** User name and password of a Basic credential, or null if it is not one. */
  private static String[] decode(String encoded) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    int colon = decoded.indexOf(':');
    return colon < 0
        ? null
        : new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
  }
}
