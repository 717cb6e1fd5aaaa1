package io.gantry.server.internal.service;

import jakarta.xml.ws.WebServiceContext;
import java.security.Principal;

/**
 * Who is calling. With authentication configured (WS-Security or HTTP Basic over TLS), the
 * transport's principal; without it the server is single-user: it listens on loopback only and
 * every caller acts as the local user, who may see every job.
 */
public record Caller(String name, boolean admin) {
  public static final String LOCAL_USER = "local";

  public static Caller of(WebServiceContext context) {
    Principal principal = context == null ? null : safePrincipal(context);
    if (principal == null) {
      return new Caller(LOCAL_USER, true);
    }
    return new Caller(principal.getName(), context.isUserInRole("admin"));
  }

  private static Principal safePrincipal(WebServiceContext context) {
    try {
      return context.getUserPrincipal();
    } catch (IllegalStateException e) {
      return null; // called outside a request (tests calling the service directly)
    }
  }

  public boolean mayAccess(String owner) {
    return admin || name.equals(owner);
  }
}
