package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigLoaderTest {
  @TempDir Path dir;

  @Test
  void noConfigurationGivesLoopbackDefaults() {
    ServerConfig config = new ServerConfigLoader().load(null, Map.of("data.dir", dir.toString()));
    assertEquals("127.0.0.1", config.listenHost());
    assertEquals(8443, config.listenPort());
    assertEquals(dir.resolve("jobs"), config.stagingRoot());
    assertTrue(config.jobStoreUrl().startsWith("jdbc:h2:file:" + dir));
  }

  @Test
  void fileSettingsAreReadAndOverridesWin() throws Exception {
    Path file = dir.resolve("gantry.properties");
    Files.writeString(
        file,
        String.join(
            "\n",
            "listen.port=9090",
            "limits.wall-time=PT2H",
            "mpirun.options=--bind-to none, --map-by core",
            "datasource.risk.url=jdbc:h2:mem:risk",
            "datasource.risk.user=reader",
            "datasource.risk.password-env=RISK_DB_PASSWORD",
            "datasource.risk.users=alice bob"));
    ServerConfig config = new ServerConfigLoader().load(file, Map.of("listen.port", "9191"));
    assertEquals(9191, config.listenPort());
    assertEquals(Duration.ofHours(2), config.defaultWallTime());
    assertEquals(
        java.util.List.of("--bind-to", "none", "--map-by", "core"), config.mpirunOptions());
    NamedDataSource risk = config.dataSource("risk");
    assertEquals("reader", risk.user());
    assertTrue(risk.allows("alice"));
    assertTrue(!risk.allows("mallory"));
    assertEquals(new PasswordSource.FromEnvironment("RISK_DB_PASSWORD"), risk.password());
  }

  /** Found by SettingsLoaderFuzzTest: Properties.load's own exception escaped the loader. */
  @Test
  void malformedUnicodeEscapeIsRefusedNamingTheFile() throws Exception {
    Path file = dir.resolve("gantry.properties");
    Files.writeString(file, "listen.host=\\u12zz\n");
    var e =
        assertThrows(ConfigException.class, () -> new ServerConfigLoader().load(file, Map.of()));
    assertTrue(
        e.getMessage().startsWith("setting '--config': cannot read " + file), e.getMessage());
    assertTrue(e.getMessage().contains("four hexadecimal digits"), e.getMessage());
  }

  /** Found by SettingsLoaderFuzzTest: a path with a NUL escaped as InvalidPathException. */
  @Test
  void aNulCharacterInASettingIsRefusedNamingIt() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> new ServerConfigLoader().load(null, Map.of("data.dir", "/tmp/a\0b")));
    assertEquals(
        "setting 'data.dir': contains a NUL character, which no setting can hold", e.getMessage());
  }

  @Test
  void portOutsideRangeIsRefusedNamingTheSetting() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> new ServerConfigLoader().load(null, Map.of("listen.port", "70000")));
    assertEquals("setting 'listen.port': 70000 is outside 0..65535", e.getMessage());
  }

  @Test
  void nonNumericSlotsAreRefused() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> new ServerConfigLoader().load(null, Map.of("slots.total", "many")));
    assertEquals("setting 'slots.total': 'many' is not a whole number", e.getMessage());
  }

  @Test
  void misspeltSettingIsRefusedRatherThanIgnored() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> new ServerConfigLoader().load(null, Map.of("listen.prot", "80")));
    assertEquals(
        "setting 'listen.prot': unknown setting; did you mean listen.port?", e.getMessage());
  }

  @Test
  void passwordInsideADataSourceUrlIsRefused() {
    var e =
        assertThrows(
            ConfigException.class,
            () ->
                new ServerConfigLoader()
                    .load(
                        null,
                        Map.of(
                            "datasource.x.url", "jdbc:postgresql://127.0.0.1/db?password=secret")));
    assertTrue(e.getMessage().startsWith("setting 'datasource.x.url': must not carry a password"));
  }

  @Test
  void badDurationIsRefused() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> new ServerConfigLoader().load(null, Map.of("limits.wall-time", "two hours")));
    assertEquals(
        "setting 'limits.wall-time': 'two hours' is not a duration (seconds, or ISO-8601 like PT2H)",
        e.getMessage());
  }

  @Test
  void missingConfigurationFileIsRefused() {
    var e =
        assertThrows(
            ConfigException.class,
            () -> new ServerConfigLoader().load(dir.resolve("absent.properties"), Map.of()));
    assertTrue(e.getMessage().startsWith("setting '--config': cannot read"));
  }
}
