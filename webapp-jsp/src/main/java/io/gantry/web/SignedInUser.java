package io.gantry.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.Serializable;

/**
 * The user a browser session belongs to, kept in the session after a successful login. The role is
 * looked up again on every request ({@link PageGuard}), so a removed account or a revoked admin
 * role takes effect at once, not at the next login.
 */
public record SignedInUser(String name, boolean admin) implements Serializable {
  private static final String ATTRIBUTE = "gantry.user";

  static SignedInUser of(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object user = session == null ? null : session.getAttribute(ATTRIBUTE);
    if (!(user instanceof SignedInUser signedIn)) {
      throw new IllegalStateException("no user signed in: the page guard lets no request this far");
    }
    return signedIn;
  }

  static SignedInUser in(HttpSession session) {
    return session == null ? null : (SignedInUser) session.getAttribute(ATTRIBUTE);
  }

  void storeIn(HttpSession session) {
    session.setAttribute(ATTRIBUTE, this);
  }
}
