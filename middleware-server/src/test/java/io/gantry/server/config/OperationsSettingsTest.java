package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ops.listen-port and ops.listen-host: off by default, loopback only. */
class OperationsSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("data.dir", dir.toString());
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void noOperationsListenerUnlessAPortIsSet() {
    assertFalse(load(Map.of()).operations().enabled());
    ServerConfig.Operations ops = load(Map.of("ops.listen-port", "9464")).operations();
    assertTrue(ops.enabled());
    assertEquals(9464, ops.port());
    assertEquals("127.0.0.1", ops.host());
  }

  @Test
  void aNonLoopbackAddressIsRefusedByName() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () -> load(Map.of("ops.listen-port", "9464", "ops.listen-host", "0.0.0.0")));
    assertTrue(e.getMessage().contains("ops.listen-host"), e.getMessage());
    assertTrue(e.getMessage().contains("loopback"), e.getMessage());
  }
}
