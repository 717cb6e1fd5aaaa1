package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.staging.GatewayOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The staging settings of the configuration reach the staging gateway the server builds. */
class GatewayWiringTest {
  @TempDir Path dir;

  @Test
  void stagingSqlThreadsBoundsTheStepsOneJobRunsAtOnce() {
    ServerConfig config =
        new ServerConfigLoader()
            .load(null, Map.of("data.dir", dir.toString(), "staging.sql-threads", "7"));
    assertEquals(7, GantryServer.gatewayOptions(config).stepThreads());
  }

  @Test
  void hostKeySettingsReachTheGateway() {
    ServerConfig config =
        new ServerConfigLoader()
            .load(
                null,
                Map.of(
                    "data.dir",
                    dir.toString(),
                    "ssh.known-hosts",
                    dir.resolve("kh").toString(),
                    "ssh.accept-unknown-host-keys",
                    "true"));
    GatewayOptions options = GantryServer.gatewayOptions(config);
    assertEquals(dir.resolve("kh"), options.knownHostsFile());
    assertTrue(options.acceptUnknownHostKeys());
  }
}
