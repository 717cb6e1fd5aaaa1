package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComputeSettingsTest {
  private static ServerConfig load(Map<String, String> settings) {
    Map<String, String> all =
        new HashMap<>(Map.of("data.dir", "/tmp/gantry-compute-settings-test"));
    all.putAll(settings);
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void theLocalBackendIsTheDefault() {
    assertEquals(ServerConfig.Backend.LOCAL, load(Map.of()).compute().backend());
  }

  @Test
  void slurmSettingsAndPerUserDefaultsAreRead() {
    ServerConfig.Compute c =
        load(Map.of(
                "compute.backend",
                "slurm",
                "slurm.bin-dir",
                "/opt/slurm/bin",
                "slurm.poll-interval",
                "PT2S",
                "slurm.partition",
                "batch",
                "slurm.user.alice.account",
                "desk-1"))
            .compute();
    assertEquals(ServerConfig.Backend.SLURM, c.backend());
    assertEquals(Path.of("/opt/slurm/bin"), c.slurmBinDirectory());
    assertEquals(Duration.ofSeconds(2), c.slurmPollInterval());
    assertEquals("batch", c.slurmPartition());
    assertEquals("desk-1", c.slurmUsers().get("alice").account());
  }

  @Test
  void anUnknownBackendIsRefusedNamingTheChoices() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> load(Map.of("compute.backend", "pbs")));
    assertTrue(
        e.getMessage().contains("compute.backend") && e.getMessage().contains("mpirun-hosts"),
        e.getMessage());
  }

  @Test
  void mpirunHostsWithoutAHostFileIsRefused() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> load(Map.of("compute.backend", "mpirun-hosts")));
    assertTrue(e.getMessage().contains("mpirun.hostfile"), e.getMessage());
  }

  @Test
  void pollingFasterThanOnceASecondIsRefused() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> load(Map.of("slurm.poll-interval", "PT0.1S")));
    assertTrue(e.getMessage().contains("slurm.poll-interval"), e.getMessage());
  }

  @Test
  void aPartitionThatIsNotAPlainNameIsRefused() {
    assertThrows(ConfigException.class, () -> load(Map.of("slurm.partition", "batch --uid=0")));
  }

  @Test
  void theDockerDeploymentsServerConfigurationLoads() {
    ServerConfig config =
        new ServerConfigLoader()
            .load(
                Path.of("")
                    .toAbsolutePath()
                    .getParent()
                    .resolve("docker/config/gantry-server.properties"),
                Map.of());
    assertEquals(ServerConfig.Backend.SLURM, config.compute().backend());
  }
}
