package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jobs.default-os-account and jobs.allowed-executable-roots, checked when loaded. */
class SandboxSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(Map<String, String> settings) {
    java.util.HashMap<String, String> all = new java.util.HashMap<>(settings);
    all.put("data.dir", dir.resolve("data").toString());
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void jobsRunAsNobodyWithOnlyTheSystemsProgramsByDefault() {
    ServerConfig.Sandbox sandbox = load(Map.of()).sandbox();
    assertEquals("nobody", sandbox.defaultOsAccount());
    assertEquals(List.of(), sandbox.allowedExecutableRoots());
  }

  @Test
  void executableRootsAreReadInOrder() {
    assertEquals(
        List.of(Path.of("/opt/risk/bin"), Path.of("/srv/tools")),
        load(Map.of("jobs.allowed-executable-roots", "/opt/risk/bin, /srv/tools/"))
            .sandbox()
            .allowedExecutableRoots());
  }

  @Test
  void rootIsRefusedAsTheDefaultAccount() {
    var e =
        assertThrows(ConfigException.class, () -> load(Map.of("jobs.default-os-account", "root")));
    assertTrue(
        e.getMessage().contains("jobs.default-os-account") && e.getMessage().contains("root"),
        e.getMessage());
    assertThrows(ConfigException.class, () -> load(Map.of("jobs.default-os-account", "-o nobody")));
  }

  @Test
  void anExecutableRootThatWouldShowJobsTheServersDataIsRefused() {
    for (String root :
        List.of(
            "/",
            dir.toString(),
            dir.resolve("data").toString(),
            dir.resolve("data/jobs/x").toString(),
            "relative/bin")) {
      var e =
          assertThrows(
              ConfigException.class,
              () -> load(Map.of("jobs.allowed-executable-roots", root)),
              root);
      assertTrue(e.getMessage().contains("jobs.allowed-executable-roots"), e.getMessage());
    }
  }
}
