package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk-bound, retention and storage-watch settings, checked when loaded. */
class StorageSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("data.dir", dir.toString());
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void defaultsBoundEveryJob() {
    ServerConfig.Storage storage = load(Map.of()).storage();
    assertEquals(16L << 30, storage.jobStagedBytes());
    assertEquals(16L << 30, storage.jobOutputBytes());
    assertEquals(1L << 30, storage.minFreeBytes());
    assertEquals(Duration.ofDays(7), storage.maxWallTime());
    assertEquals(Duration.ofDays(7), storage.retention());
    assertEquals(Duration.ofSeconds(5), storage.checkInterval());
  }

  @Test
  void byteSettingsTakeBinarySuffixes() {
    ServerConfig.Storage storage =
        load(Map.of(
                "limits.job-staged-bytes",
                "512M",
                "limits.job-output-bytes",
                "2TiB",
                "staging.min-free-bytes",
                "1048576"))
            .storage();
    assertEquals(512L << 20, storage.jobStagedBytes());
    assertEquals(2L << 40, storage.jobOutputBytes());
    assertEquals(1048576, storage.minFreeBytes());
  }

  @Test
  void aByteSettingThatIsNotANumberIsRefusedByName() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> load(Map.of("limits.job-output-bytes", "lots")));
    assertTrue(e.getMessage().contains("limits.job-output-bytes"), e.getMessage());
  }

  @Test
  void aDefaultWallTimeLongerThanTheMaximumIsRefused() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () -> load(Map.of("limits.wall-time", "PT3H", "limits.max-wall-time", "PT2H")));
    assertTrue(
        e.getMessage().contains("limits.wall-time")
            && e.getMessage().contains("limits.max-wall-time"),
        e.getMessage());
  }

  @Test
  void theStoreConnectionTimeoutIsTenSecondsUnlessSetAndAtLeastAQuarterSecond() {
    assertEquals(Duration.ofSeconds(10), load(Map.of()).jobStoreConnectionTimeout());
    assertEquals(
        Duration.ofMillis(1500),
        load(Map.of("store.connection-timeout", "PT1.5S")).jobStoreConnectionTimeout());
    ConfigException e =
        assertThrows(
            ConfigException.class, () -> load(Map.of("store.connection-timeout", "PT0.1S")));
    assertTrue(
        e.getMessage().contains("store.connection-timeout") && e.getMessage().contains("250 ms"),
        e.getMessage());
  }
}
