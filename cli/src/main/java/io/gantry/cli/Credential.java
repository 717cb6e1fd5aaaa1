package io.gantry.cli;

import io.gantry.cli.internal.soap.HttpEndpoint;

/**
 * How a command proves who it is: nothing (a server without authentication), a password (HTTP
 * Basic), or the session token {@code gantry login} keeps (a bearer token, RFC 6750). Its text
 * never appears in {@link #toString()}.
 */
final class Credential {
  private final String authorization;
  private final boolean token;

  private Credential(String authorization, boolean token) {
    this.authorization = authorization;
    this.token = token;
  }

  static Credential none() {
    return new Credential(null, false);
  }

  /** HTTP Basic as {@code user}; no credential when there is no user. */
  static Credential password(String user, String password) {
    return user == null ? none() : new Credential(HttpEndpoint.basic(user, password), false);
  }

  static Credential token(String token) {
    return new Credential(HttpEndpoint.bearer(token), true);
  }

  /** The Authorization header's value, or null. */
  String authorization() {
    return authorization;
  }

  boolean isToken() {
    return token;
  }

  @Override
  public String toString() {
    return authorization == null ? "no credential" : token ? "session token" : "password";
  }
}
