package io.gantry.server.http;

import io.gantry.server.security.UserAuthenticator;
import io.gantry.server.store.UserAccount;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Base64;
import java.util.Optional;

/**
 * HTTP Basic authentication (RFC 7617) for simple SOAP clients (curl, zeep), in front of
 * {@code /services/*}. A request with Basic credentials is let through only if they are right,
 * and then carries the user as its principal; wrong ones get 401 with a challenge. A request
 * without them goes on to the SOAP stack, where a WS-Security UsernameToken may authenticate it
 * and {@link AuthenticationRequiredInterceptor} refuses it if nothing did.
 */
final class BasicAuthenticationFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  static final String CHALLENGE = "Basic realm=\"gantry\", charset=\"UTF-8\"";
  private final transient UserAuthenticator authenticator;

  BasicAuthenticationFilter(UserAuthenticator authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String header = request.getHeader("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      chain.doFilter(request, response);
      return;
    }
    Optional<UserAccount> account = authenticate(header.substring(6).strip(), request.getRemoteAddr());
    if (account.isEmpty()) {
      response.setHeader("WWW-Authenticate", CHALLENGE);
      response.sendError(HttpServletResponse.SC_UNAUTHORIZED, "wrong user name or password");
      return;
    }
    chain.doFilter(new Authenticated(request, AccountPrincipal.of(account.get())), response);
  }

  private Optional<UserAccount> authenticate(String encoded, String remoteAddress) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    return authenticator.authenticate(decoded.substring(0, colon),
        decoded.substring(colon + 1).toCharArray(), remoteAddress);
  }

  /** The request as seen after a successful login: its principal and roles are the user's. */
  private static final class Authenticated extends HttpServletRequestWrapper {
    private final AccountPrincipal principal;

    Authenticated(HttpServletRequest request, AccountPrincipal principal) {
      super(request);
      this.principal = principal;
    }

    @Override
    public Principal getUserPrincipal() {
      return principal;
    }

    @Override
    public String getRemoteUser() {
      return principal.getName();
    }

    @Override
    public boolean isUserInRole(String role) {
      return principal.isUserInRole(role);
    }

    @Override
    public String getAuthType() {
      return HttpServletRequest.BASIC_AUTH;
    }
  }
}
