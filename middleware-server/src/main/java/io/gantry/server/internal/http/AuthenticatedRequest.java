package io.gantry.server.internal.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.security.Principal;

/**
 * A request as seen after a successful login: its principal and roles are the user's, and its
 * authentication type says how (Basic, or a session token), which the service asks before it issues
 * a new token.
 */
final class AuthenticatedRequest extends HttpServletRequestWrapper {
  private final AccountPrincipal principal;
  private final String authType;

  AuthenticatedRequest(HttpServletRequest request, AccountPrincipal principal, String authType) {
    super(request);
    this.principal = principal;
    this.authType = authType;
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
    return authType;
  }
}
