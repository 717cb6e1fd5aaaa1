package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAccount;
import java.security.Principal;
import org.apache.cxf.security.SecurityContext;

/**
 * An authenticated user as CXF's {@link SecurityContext} and the servlet API see it: the name and
 * whether the user is in role {@code admin}. {@code Caller} reads it through the JAX-WS {@code
 * WebServiceContext}.
 */
record AccountPrincipal(String getName, boolean admin) implements Principal, SecurityContext {
  static final String ADMIN_ROLE = "admin";
  static final String USER_ROLE = "user";

  static AccountPrincipal of(UserAccount account) {
    return new AccountPrincipal(account.name(), account.admin());
  }

  @Override
  public Principal getUserPrincipal() {
    return this;
  }

  @Override
  public boolean isUserInRole(String role) {
    return USER_ROLE.equals(role) || (admin && ADMIN_ROLE.equals(role));
  }
}
