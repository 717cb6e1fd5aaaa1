package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Option, then environment variable, then stored login, then built-in default; the stored login
 * only for its server.
 */
class ServerSettingsTest {
  static final String STORED_SERVER = "https://hpc-gw.example.org:8443";
  static final String STORED_FINGERPRINT = "AB:".repeat(31) + "CD";
  static final String OTHER_FINGERPRINT = "12:".repeat(31) + "34";
  static final ServerSettings.Given NOTHING = new ServerSettings.Given(null, null, null);

  @TempDir Path dir;
  LoginFile stored;
  final Map<String, String> environment = new HashMap<>();

  @BeforeEach
  void storeALogin() {
    stored = new LoginFile(dir.resolve("gantry/config.properties"));
    stored.write(new StoredLogin(STORED_SERVER, "alice", STORED_FINGERPRINT));
  }

  private ServerSettings resolve(ServerSettings.Given given) {
    return ServerSettings.resolve(given, environment, stored);
  }

  @Test
  void withNothingGivenTheStoredLoginIsUsedAndSaysWhereTheFingerprintCameFrom() {
    assertEquals(
        new ServerSettings(STORED_SERVER, "alice", STORED_FINGERPRINT, stored.path()),
        resolve(NOTHING));
  }

  @Test
  void theEnvironmentOverridesTheStoredLoginAndOptionsOverrideTheEnvironment() {
    environment.put("GANTRY_USER", "bob");
    environment.put("GANTRY_SERVER_FINGERPRINT", OTHER_FINGERPRINT);
    assertEquals(
        new ServerSettings(STORED_SERVER, "bob", OTHER_FINGERPRINT, null), resolve(NOTHING));
    assertEquals(
        new ServerSettings(STORED_SERVER, "carol", OTHER_FINGERPRINT, null),
        resolve(new ServerSettings.Given(null, "carol", null)));
  }

  @Test
  void theStoredUserAndFingerprintApplyToTheStoredServerOnlyHoweverItsUrlIsWritten() {
    assertEquals(
        new ServerSettings("https://elsewhere:8443", null, null, null),
        resolve(new ServerSettings.Given("https://elsewhere:8443", null, null)));
    environment.put("GANTRY_SERVER", STORED_SERVER + "/services/JobManagement");
    assertEquals(
        new ServerSettings(
            STORED_SERVER + "/services/JobManagement", "alice", STORED_FINGERPRINT, stored.path()),
        resolve(NOTHING));
  }

  @Test
  void withoutAStoredLoginTheDefaultServerIsUsed() throws Exception {
    Files.delete(stored.path());
    assertEquals(new ServerSettings("https://127.0.0.1:8443", null, null, null), resolve(NOTHING));
  }
}
