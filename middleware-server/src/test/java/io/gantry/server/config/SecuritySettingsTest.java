package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tls.*, auth.* and admin.*: checked when loaded, with plain HTTP kept to loopback. */
class SecuritySettingsTest {
  @TempDir Path dir;

  private ServerConfig load(Map<String, String> settings) {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.put("data.dir", dir.toString());
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void tlsAndAuthenticationAreSetTogetherWithAKeystore() {
    ServerConfig.Security s =
        load(Map.of(
                "tls.enabled",
                "true",
                "auth.enabled",
                "true",
                "tls.keystore",
                "/etc/gantry/tls.p12",
                "tls.keystore-password-file",
                "/etc/gantry/tls.password",
                "admin.password-file",
                "/etc/gantry/admin.password",
                "listen.host",
                "0.0.0.0"))
            .security();
    assertTrue(s.tlsEnabled());
    assertTrue(s.authEnabled());
    assertEquals(Path.of("/etc/gantry/tls.p12"), s.tlsKeystore());
    assertEquals(
        new PasswordSource.FromFile(Path.of("/etc/gantry/tls.password")), s.tlsKeystorePassword());
    assertEquals(
        new PasswordSource.FromFile(Path.of("/etc/gantry/admin.password")), s.adminPassword());
  }

  @Test
  void withoutSettingsTheServerHasTlsAndAccounts() {
    ServerConfig.Security s = load(Map.of()).security();
    assertTrue(s.tlsEnabled());
    assertTrue(s.authEnabled());
    assertEquals(null, s.tlsKeystore(), "a generated certificate");
    assertEquals(new PasswordSource.None(), s.adminPassword(), "a generated admin password");
  }

  @Test
  void plainHttpAndASingleUserMayBeChosenOnLoopback() {
    ServerConfig.Security s =
        load(Map.of("tls.enabled", "false", "auth.enabled", "false")).security();
    assertFalse(s.tlsEnabled());
    assertFalse(s.authEnabled());
  }

  @Test
  void plainHttpOnANetworkAddressIsRefused() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> load(Map.of("listen.host", "0.0.0.0", "tls.enabled", "false")));
    assertTrue(
        e.getMessage().startsWith("setting 'tls.enabled': plain HTTP is allowed only on loopback"),
        e.getMessage());
  }

  @Test
  void aServerWithoutAuthenticationOnANetworkAddressIsRefused() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> load(Map.of("listen.host", "0.0.0.0", "auth.enabled", "false")));
    assertTrue(e.getMessage().startsWith("setting 'auth.enabled':"), e.getMessage());
  }

  @Test
  void aKeystoreNeedsItsPasswordFile() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> load(Map.of("tls.enabled", "true", "tls.keystore", "/etc/gantry/tls.p12")));
    assertEquals(
        "setting 'tls.keystore-password-file': is required with tls.keystore", e.getMessage());
  }

  @Test
  void ipv6LoopbackCountsAsLoopback() {
    assertFalse(load(Map.of("listen.host", "::1", "tls.enabled", "false")).security().tlsEnabled());
  }
}
