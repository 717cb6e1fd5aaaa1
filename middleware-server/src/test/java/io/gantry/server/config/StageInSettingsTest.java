package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.GantryServerSettingsAccess;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cache.max-bytes and staging.bind-batch-rows: defaults, suffixes, limits, and what reaches the
 * gateway.
 */
class StageInSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(String... settings) {
    Map<String, String> all = new HashMap<>(Map.of("data.dir", dir.toString()));
    for (int i = 0; i < settings.length; i += 2) {
      all.put(settings[i], settings[i + 1]);
    }
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void theCacheHoldsTenGibibytesAndBindingBatchesAHundredRowsByDefault() {
    ServerConfig config = load();
    assertEquals(10L << 30, config.stageIn().cacheMaxBytes());
    assertEquals(100, config.stageIn().bindBatchRows());
    assertEquals(100, GantryServerSettingsAccess.gatewayOptions(config).bindBatchRows());
    assertEquals(
        config.stagingRoot().resolve(".stage-in-cache"),
        GantryServerSettingsAccess.cacheDirectory(config));
  }

  @Test
  void sizesTakeSuffixesAndZeroTurnsTheCacheOff() {
    assertEquals(512L << 20, load("cache.max-bytes", "512M").stageIn().cacheMaxBytes());
    assertEquals(0, load("cache.max-bytes", "0").stageIn().cacheMaxBytes());
    assertEquals(1, load("staging.bind-batch-rows", "1").stageIn().bindBatchRows());
  }

  @Test
  void badValuesNameTheSetting() {
    ConfigException size =
        assertThrows(ConfigException.class, () -> load("cache.max-bytes", "lots"));
    assertTrue(size.getMessage().contains("cache.max-bytes"), size.getMessage());
    ConfigException rows =
        assertThrows(ConfigException.class, () -> load("staging.bind-batch-rows", "0"));
    assertTrue(rows.getMessage().contains("staging.bind-batch-rows"), rows.getMessage());
  }
}
