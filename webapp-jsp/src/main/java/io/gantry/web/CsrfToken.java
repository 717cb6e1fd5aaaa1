package io.gantry.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;

/**
 * The synchroniser token that protects every form against cross-site request forgery: a random
 * value kept in the session, sent back in a hidden field {@code csrf} (or the header {@code
 * X-CSRF-Token} from scripts), compared in constant time. Pages read it as {@code ${csrf}}.
 */
final class CsrfToken {
  static final String FIELD = "csrf";
  static final String HEADER = "X-CSRF-Token";
  private static final String ATTRIBUTE = "gantry.csrf";
  private static final SecureRandom RANDOM = new SecureRandom();

  private CsrfToken() {}

  /** The session's token, made on first use. */
  static String of(HttpSession session) {
    Object token = session.getAttribute(ATTRIBUTE);
    if (token instanceof String s) {
      return s;
    }
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    session.setAttribute(ATTRIBUTE, fresh);
    return fresh;
  }

  /**
   * Whether the request carries its session's token. A multipart request (the JSDL upload) must
   * carry it in the header or the query string: its body is not read here, so that a refused,
   * oversized or broken upload is neither parsed nor spooled to disk before the token is checked,
   * and the servlet that takes the upload answers its problems itself.
   */
  static boolean matches(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object expected = session == null ? null : session.getAttribute(ATTRIBUTE);
    String sent = request.getHeader(HEADER);
    if (sent == null) {
      sent = multipart(request) ? fromQuery(request.getQueryString()) : request.getParameter(FIELD);
    }
    return expected instanceof String e
        && sent != null
        && MessageDigest.isEqual(
            e.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8));
  }

  private static boolean multipart(HttpServletRequest request) {
    String type = request.getContentType();
    return type != null && type.strip().toLowerCase(Locale.ROOT).startsWith("multipart/");
  }

  /** The {@code csrf} parameter of a query string, or null. */
  private static String fromQuery(String query) {
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equals(FIELD)) {
        try {
          return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return null;
  }
}
