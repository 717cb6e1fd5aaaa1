package io.gantry.cli.internal.soap;

import jakarta.xml.ws.WebServiceException;

/**
 * The server answered with an HTTP status that carries no result and no declared fault: 401 (the
 * credentials were refused), 404 (no service at that address), 429 (too many failed logins), and so
 * on. {@code reason} is the server's own words where it sent a SOAP fault with them, else the HTTP
 * reason phrase; {@code challenge} the WWW-Authenticate header, which tells an expired or revoked
 * session token (RFC 6750 {@code error="invalid_token"}) from a wrong password.
 */
public final class HttpStatusException extends WebServiceException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String reason;
  private final String challenge;

  HttpStatusException(int status, String reason, String challenge) {
    super("HTTP " + status + (reason == null || reason.isEmpty() ? "" : " " + reason));
    this.status = status;
    this.reason = reason == null ? "" : reason;
    this.challenge = challenge;
  }

  public int status() {
    return status;
  }

  public String reason() {
    return reason;
  }

  /** The WWW-Authenticate header, or null. */
  public String challenge() {
    return challenge;
  }
}
