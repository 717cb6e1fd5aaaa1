package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which registration the settings choose, and the settings the registrations require. */
class ComputeBackendsTest {
  private static ServerConfig load(Map<String, String> settings) {
    Map<String, String> all =
        new HashMap<>(Map.of("data.dir", "/tmp/gantry-compute-backends-test"));
    all.putAll(settings);
    return new ServerConfigLoader().load(null, all);
  }

  private static String chosenBy(Map<String, String> settings) {
    return ComputeBackends.chosen(load(settings)).name();
  }

  private static Map<String, String> cluster(String backend) {
    return Map.of(
        "compute.backend", backend,
        "compute.ssh-host", "login.cluster.example",
        "compute.ssh-user", "gantry",
        "compute.ssh-identity", "cluster",
        "compute.root", "/scratch/gantry",
        "mpirun.hostfile", "/etc/gantry/hosts");
  }

  @Test
  void eachComputeBackendValueChoosesOneRegisteredBackend() {
    assertEquals("local", chosenBy(Map.of()));
    assertEquals(
        "mpirun-hosts",
        chosenBy(
            Map.of("compute.backend", "mpirun-hosts", "mpirun.hostfile", "/etc/gantry/hosts")));
    assertEquals("slurm", chosenBy(Map.of("compute.backend", "slurm")));
    assertEquals("slurm over SSH", chosenBy(cluster("slurm")));
  }

  @Test
  void everyRegisteredNameIsChosenOnEverySiteItIsRegisteredFor() {
    for (ComputeBackends.Registration r : ComputeBackends.registered()) {
      Map<String, String> settings =
          r.site() == ComputeBackends.Site.CLUSTER_OVER_SSH
              ? cluster(r.backend())
              : Map.of("compute.backend", r.backend(), "mpirun.hostfile", "/etc/gantry/hosts");
      assertEquals(r.name(), chosenBy(settings));
    }
  }

  @Test
  void anUnknownBackendIsRefusedNamingTheRegisteredChoices() {
    ServerConfig config = load(Map.of("compute.backend", "pbs"));
    ConfigException e = assertThrows(ConfigException.class, () -> ComputeBackends.check(config));
    assertTrue(
        e.getMessage().contains("compute.backend")
            && e.getMessage().contains("'pbs' is not local, mpirun-hosts or slurm"),
        e.getMessage());
  }

  @Test
  void mpirunHostsWithoutAHostFileIsRefusedNamingTheSetting() {
    ServerConfig config = load(Map.of("compute.backend", "mpirun-hosts"));
    ConfigException e = assertThrows(ConfigException.class, () -> ComputeBackends.check(config));
    assertTrue(
        e.getMessage().contains("mpirun.hostfile")
            && e.getMessage().contains("required with compute.backend=mpirun-hosts"),
        e.getMessage());
  }

  @Test
  void aClusterOverSshRunsOnlyTheBackendsRegisteredThere() {
    for (String backend : new String[] {"local", "mpirun-hosts"}) {
      ServerConfig config = load(cluster(backend));
      ConfigException e =
          assertThrows(ConfigException.class, () -> ComputeBackends.check(config), backend);
      assertTrue(
          e.getMessage().contains("compute.ssh-host")
              && e.getMessage().contains("needs compute.backend=slurm"),
          e.getMessage());
    }
  }
}
