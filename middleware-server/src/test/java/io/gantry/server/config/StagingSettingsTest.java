package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data-source and staging-target settings, and the demo's defaults. */
class StagingSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(String... settings) {
    Map<String, String> all = new HashMap<>(Map.of("data.dir", dir.toString()));
    for (int i = 0; i < settings.length; i += 2) {
      all.put(settings[i], settings[i + 1]);
    }
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void aDefaultServerHasNoDemoNoInlineDataSourcesAndNoExtraTargets() {
    ServerConfig config = load();
    assertFalse(config.demoEnabled());
    assertFalse(config.staging().inlineDataSources());
    assertEquals(List.of(), config.staging().allowedJdbcUrls());
    assertEquals(List.of(), config.staging().allowedHosts());
    assertEquals(Set.of(), config.staging().sqlFunctions());
  }

  @Test
  void theDemoRefusesAListenerThatIsNotLoopback() {
    var e =
        assertThrows(
            ConfigException.class,
            () ->
                load(
                    "demo.enabled",
                    "true",
                    "listen.host",
                    "0.0.0.0",
                    "tls.enabled",
                    "true",
                    "auth.enabled",
                    "true"));
    assertTrue(
        e.getMessage()
            .startsWith("setting 'demo.enabled': the demo runs only on a loopback listener"),
        e.getMessage());
    assertTrue(load("demo.enabled", "true").demoEnabled());
  }

  @Test
  void stagingSettingsAreReadAndChecked() {
    ServerConfig config =
        load(
            "staging.inline-data-sources",
            "true",
            "staging.allowed-jdbc-urls",
            "jdbc:postgresql://db.example.org:5432/* jdbc:h2:tcp://h2.example.org/**",
            "staging.allowed-hosts",
            "files.example.org, 192.0.2.7:22 [::1]:2222",
            "staging.sql-functions",
            "fx_rate");
    assertTrue(config.staging().inlineDataSources());
    assertEquals(2, config.staging().allowedJdbcUrls().size());
    assertEquals(
        List.of("files.example.org", "192.0.2.7:22", "[::1]:2222"),
        config.staging().allowedHosts());
    assertEquals(Set.of("FX_RATE"), config.staging().sqlFunctions());
    var e = assertThrows(ConfigException.class, () -> load("staging.allowed-hosts", "user@host"));
    assertEquals(
        "setting 'staging.allowed-hosts': 'user@host' is not a host or host:port", e.getMessage());
    assertThrows(
        ConfigException.class, () -> load("staging.sql-functions", "pg_catalog.pg_read_file"));
  }

  @Test
  void aNamedDataSourceMayReadWithItsOwnAccount() {
    ServerConfig config =
        load(
            "datasource.risk.url",
            "jdbc:postgresql://db/risk",
            "datasource.risk.user",
            "writer",
            "datasource.risk.password-env",
            "W",
            "datasource.risk.read-user",
            "reader",
            "datasource.risk.read-password-env",
            "R",
            "datasource.plain.url",
            "jdbc:postgresql://db/plain");
    NamedDataSource risk = config.dataSource("risk");
    assertEquals("writer", risk.user());
    assertEquals(
        new NamedDataSource.Account("reader", new PasswordSource.FromEnvironment("R")),
        risk.reader());
    assertNull(config.dataSource("plain").reader());
    assertThrows(
        ConfigException.class,
        () ->
            load(
                "datasource.x.url",
                "jdbc:postgresql://db/x",
                "datasource.x.read-password-env",
                "R"));
  }
}
