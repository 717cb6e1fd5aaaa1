package io.gantry.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Which server a command talks to, as whom, and which certificate it trusts. Each comes from the
 * command line, else the environment, else the login {@code gantry login} stored, else the built-in
 * default. The stored user and fingerprint belong to the stored server: they apply only when the
 * command talks to that server, so that {@code --server elsewhere} never sends the stored user name
 * to another server nor pins that server to a certificate it never had.
 *
 * @param pinnedBy the login file the fingerprint came from, or null when it was given
 */
record ServerSettings(String server, String user, String fingerprint, Path pinnedBy) {
  static final String DEFAULT_SERVER = "https://127.0.0.1:8443";
  static final String SERVER_VARIABLE = "GANTRY_SERVER";
  static final String USER_VARIABLE = "GANTRY_USER";
  static final String FINGERPRINT_VARIABLE = "GANTRY_SERVER_FINGERPRINT";

  /** The options as given on the command line (null when not given). */
  record Given(String server, String user, String fingerprint) {}

  static ServerSettings resolve(Given given, Map<String, String> environment, LoginFile loginFile) {
    String server = first(given.server(), environment.get(SERVER_VARIABLE));
    String user = first(given.user(), environment.get(USER_VARIABLE));
    String fingerprint = first(given.fingerprint(), environment.get(FINGERPRINT_VARIABLE));
    if (server != null && user != null && fingerprint != null) {
      return new ServerSettings(server, user, fingerprint, null);
    }
    Optional<StoredLogin> stored = loginFile.read();
    if (server == null) {
      server = stored.map(StoredLogin::server).orElse(DEFAULT_SERVER);
    }
    String target = ServerConnection.endpointOf(server);
    Optional<StoredLogin> forThisServer =
        stored.filter(s -> ServerConnection.endpointOf(s.server()).equals(target));
    if (user == null) {
      user = forThisServer.map(StoredLogin::user).orElse(null);
    }
    if (fingerprint != null || forThisServer.map(StoredLogin::fingerprint).isEmpty()) {
      return new ServerSettings(server, user, fingerprint, null);
    }
    return new ServerSettings(server, user, forThisServer.get().fingerprint(), loginFile.path());
  }

  /** These settings trusting only a fingerprint that was given, not one a login file pinned. */
  ServerSettings withoutStoredFingerprint() {
    return pinnedBy == null ? this : new ServerSettings(server, user, null, null);
  }

  ServerSettings pinnedTo(String newFingerprint) {
    return new ServerSettings(server, user, newFingerprint, null);
  }

  ServerSettings as(String newUser) {
    return new ServerSettings(server, newUser, fingerprint, pinnedBy);
  }

  boolean https() {
    return server.strip().regionMatches(true, 0, "https://", 0, "https://".length());
  }

  private static String first(String option, String variable) {
    if (option != null && !option.isBlank()) {
      return option.strip();
    }
    return variable == null || variable.isBlank() ? null : variable.strip();
  }
}
