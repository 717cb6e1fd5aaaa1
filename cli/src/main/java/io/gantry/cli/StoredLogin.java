package io.gantry.cli;

/**
 * What {@code gantry login} keeps for the next commands: the server, the user name, the SHA-256
 * fingerprint of the server certificate the user confirmed (null over plain http), and the session
 * token the server issued (null when it issues none), with its id for {@code gantry logout}. Never
 * a password: that stays in the user's head or in {@code GANTRY_PASSWORD}.
 */
record StoredLogin(String server, String user, String fingerprint, String token, String tokenId) {
  StoredLogin(String server, String user, String fingerprint) {
    this(server, user, fingerprint, null, null);
  }

  /** The same login without its session token (after gantry logout). */
  StoredLogin withoutToken() {
    return new StoredLogin(server, user, fingerprint);
  }

  @Override
  public String toString() {
    // never the token: records print every component
    return "StoredLogin[server="
        + server
        + ", user="
        + user
        + ", fingerprint="
        + fingerprint
        + ", token="
        + (token == null ? "none" : "(kept)")
        + "]";
  }
}
