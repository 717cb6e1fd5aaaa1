package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComputeBackendsTest {
  private static ServerConfig.Compute load(Map<String, String> settings) {
    Map<String, String> all =
        new HashMap<>(Map.of("data.dir", "/tmp/gantry-compute-backends-test"));
    all.putAll(settings);
    return new ServerConfigLoader().load(null, all).compute();
  }

  private static List<String> chosenBy(ServerConfig.Compute settings) {
    return ComputeBackends.registered().stream()
        .filter(r -> r.chosenBy().test(settings))
        .map(ComputeBackends.Registration::name)
        .toList();
  }

  @Test
  void eachComputeBackendValueChoosesExactlyOneRegisteredBackend() {
    assertEquals(List.of("local"), chosenBy(load(Map.of())));
    assertEquals(
        List.of("mpirun-hosts"),
        chosenBy(
            load(
                Map.of(
                    "compute.backend", "mpirun-hosts", "mpirun.hostfile", "/etc/gantry/hosts"))));
    assertEquals(List.of("slurm"), chosenBy(load(Map.of("compute.backend", "slurm"))));
    assertEquals(
        List.of("slurm over SSH"),
        chosenBy(
            load(
                Map.of(
                    "compute.backend", "slurm",
                    "compute.ssh-host", "login.cluster.example",
                    "compute.ssh-user", "gantry",
                    "compute.ssh-identity", "cluster",
                    "compute.root", "/scratch/gantry"))));
  }

  @Test
  void everyValueOfComputeBackendHasARegistration() {
    for (ServerConfig.Backend backend : ServerConfig.Backend.values()) {
      Map<String, String> settings = new HashMap<>(Map.of("compute.backend", backend.setting()));
      settings.put("mpirun.hostfile", "/etc/gantry/hosts");
      assertEquals(1, chosenBy(load(settings)).size(), backend.setting());
    }
  }
}
