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
    assertEquals("local", load(Map.of()).compute().backend());
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
    assertEquals("slurm", c.backend());
    assertEquals(Path.of("/opt/slurm/bin"), c.slurmBinDirectory());
    assertEquals(Duration.ofSeconds(2), c.slurmPollInterval());
    assertEquals("batch", c.slurmPartition());
    assertEquals("desk-1", c.slurmUsers().get("alice").account());
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
    assertEquals("slurm", config.compute().backend());
    // the nodes' launchers reach a farm's dispatcher at the server's name on the compose network
    assertEquals("gantry-server", config.taskFarms().dispatcherHost());
  }

  private static Map<String, String> cluster(String backend, String root) {
    return Map.of(
        "compute.backend", backend,
        "compute.ssh-host", "login.cluster.example",
        "compute.ssh-user", "gantry",
        "compute.ssh-identity", "cluster",
        "compute.root", root);
  }

  @Test
  void aClusterOverSshIsReadWithItsDefaults() {
    ServerConfig.Cluster c = load(cluster("slurm", "/scratch/gantry/")).compute().cluster();
    assertEquals("login.cluster.example", c.host());
    assertEquals(22, c.port());
    assertEquals("gantry", c.user());
    assertEquals("cluster", c.identity());
    assertEquals("/scratch/gantry", c.root());
    assertEquals(
        Path.of("/tmp/gantry-compute-settings-test/ssh/known_hosts"),
        c.knownHosts(),
        "ssh.known-hosts' default");
  }

  @Test
  void withoutASshHostThereIsNoCluster() {
    assertEquals(null, load(Map.of("compute.backend", "slurm")).compute().cluster());
  }

  @Test
  void aClusterNeedsItsAccountIdentityAndRoot() {
    for (String required :
        java.util.List.of("compute.ssh-user", "compute.ssh-identity", "compute.root")) {
      Map<String, String> settings = new HashMap<>(cluster("slurm", "/scratch/gantry"));
      settings.remove(required);
      ConfigException e = assertThrows(ConfigException.class, () -> load(settings));
      assertTrue(e.getMessage().contains(required), e.getMessage());
    }
  }

  @Test
  void aClusterRootMustBeAnAbsolutePlainPath() {
    for (String root :
        java.util.List.of("scratch", "/scratch/../etc", "/scratch/a b", "/scratch/*", "/x;y")) {
      ConfigException e =
          assertThrows(ConfigException.class, () -> load(cluster("slurm", root)), root);
      assertTrue(e.getMessage().contains("compute.root"), e.getMessage());
    }
  }

  @Test
  void aClusterRefusesTheLocalJobSupervisor() {
    Map<String, String> settings = new HashMap<>(cluster("slurm", "/scratch/gantry"));
    settings.put("jobs.supervisor", "/opt/gantry/bin/gantry-stepd");
    ConfigException e = assertThrows(ConfigException.class, () -> load(settings));
    assertTrue(
        e.getMessage().contains("jobs.supervisor") && e.getMessage().contains("compute.ssh-host"),
        e.getMessage());
  }
}
