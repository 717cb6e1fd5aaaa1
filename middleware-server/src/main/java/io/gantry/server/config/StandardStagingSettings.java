package io.gantry.server.config;

import io.gantry.staging.UriStagingPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;

/**
 * Turns the standard-staging settings into the gateway's {@link UriStagingPolicy}: the file roots
 * as given, the trust store loaded now (a missing file or wrong password stops the server at start,
 * naming the setting, rather than failing the first https job).
 */
public final class StandardStagingSettings {
  private StandardStagingSettings() {}

  public static UriStagingPolicy policy(ServerConfig.StandardStaging settings) {
    return policy(settings, null);
  }

  /** With a host rule (staging.allowed-hosts); null: every host. */
  public static UriStagingPolicy policy(
      ServerConfig.StandardStaging settings, UriStagingPolicy.HostCheck hosts) {
    return new UriStagingPolicy(settings.fileRoots(), trustStore(settings), hosts);
  }

  private static KeyStore trustStore(ServerConfig.StandardStaging settings) {
    if (settings.trustStore() == null) {
      return null;
    }
    char[] password = settings.trustStorePassword().read();
    try (InputStream in = Files.newInputStream(settings.trustStore())) {
      String name =
          settings.trustStore().getFileName().toString().toLowerCase(java.util.Locale.ROOT);
      KeyStore store = KeyStore.getInstance(name.endsWith(".jks") ? "JKS" : "PKCS12");
      store.load(in, password);
      return store;
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(
          "staging.trust-store", "cannot load " + settings.trustStore() + ": " + e.getMessage());
    } finally {
      Arrays.fill(password, '\0');
    }
  }
}
