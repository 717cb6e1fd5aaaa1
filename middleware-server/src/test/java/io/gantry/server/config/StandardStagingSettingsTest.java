package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.UriStagingPolicy;
import io.gantry.testing.TestKeystore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** staging.file-roots and staging.trust-store, checked when loaded. */
class StandardStagingSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(Map<String, String> settings) {
    HashMap<String, String> all = new HashMap<>(settings);
    all.put("data.dir", dir.resolve("data").toString());
    return new ServerConfigLoader().load(null, all);
  }

  @Test
  void fileUrisAreOffAndTheJdkTrustStoreIsUsedByDefault() {
    UriStagingPolicy policy = StandardStagingSettings.policy(load(Map.of()).standardStaging());
    assertEquals(List.of(), policy.fileRoots());
    assertNull(policy.trustStore());
  }

  @Test
  void aFileRootThatWouldShowTheServersDataOrTheJobDirectoriesIsRefused() {
    for (String root :
        List.of(
            "/",
            dir.toString(),
            dir.resolve("data/tls").toString(),
            dir.resolve("data/jobs").toString())) {
      ConfigException e =
          assertThrows(ConfigException.class, () -> load(Map.of("staging.file-roots", root)), root);
      assertTrue(e.getMessage().contains("staging.file-roots"), e.getMessage());
    }
    assertThrows(ConfigException.class, () -> load(Map.of("staging.file-roots", "relative/dir")));
    assertEquals(
        List.of(Path.of("/srv/shared"), Path.of("/srv/results")),
        load(Map.of("staging.file-roots", "/srv/shared, /srv/results/"))
            .standardStaging()
            .fileRoots());
  }

  @Test
  void anOperatorTrustStoreIsLoadedAtStartAndAWrongPasswordStopsTheServer() throws Exception {
    TestKeystore tls = TestKeystore.generate(dir);
    Path store = dir.resolve("trust.p12");
    tls.writeTrustStore(store, "trust-pw".toCharArray());
    Files.writeString(dir.resolve("pw"), "trust-pw");
    Files.writeString(dir.resolve("wrong"), "nope");
    UriStagingPolicy policy =
        StandardStagingSettings.policy(
            load(Map.of(
                    "staging.trust-store",
                    store.toString(),
                    "staging.trust-store-password-file",
                    dir.resolve("pw").toString()))
                .standardStaging());
    assertNotNull(policy.trustStore().getCertificate("test"));
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                StandardStagingSettings.policy(
                    load(Map.of(
                            "staging.trust-store",
                            store.toString(),
                            "staging.trust-store-password-file",
                            dir.resolve("wrong").toString()))
                        .standardStaging()));
    assertTrue(e.getMessage().contains("staging.trust-store"), e.getMessage());
    assertThrows(
        ConfigException.class, () -> load(Map.of("staging.trust-store", store.toString())));
  }
}
