package io.gantry.server;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.server.internal.compute.ComputeBackends;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --config} and {@code --data-dir}, shared by the server and its {@code user} commands so
 * that both find the same job store. They may be given before the subcommand ({@code gantry-server
 * --data-dir D user add alice}) or after it; see {@link #orElse}.
 */
final class ConfigurationOptions {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "configuration file (Java properties)")
  Path config;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "data directory (default ~/.gantry-server)")
  Path dataDir;

  /**
   * These options, each one not given here taken from {@code outer} (those given before the
   * subcommand). Without this, options before a subcommand were parsed into the top command, which
   * does not run, and silently ignored: the user went into ~/.gantry-server.
   */
  ConfigurationOptions orElse(ConfigurationOptions outer) {
    if (outer == null) {
      return this;
    }
    ConfigurationOptions merged = new ConfigurationOptions();
    merged.config = config != null ? config : outer.config;
    merged.dataDir = dataDir != null ? dataDir : outer.dataDir;
    return merged;
  }

  /** A setting's value in the configuration file, if there is a file and it sets it. */
  java.util.Optional<String> fileSetting(String key) {
    if (config == null) {
      return java.util.Optional.empty();
    }
    java.util.Properties p = new java.util.Properties();
    try (java.io.Reader in =
        java.nio.file.Files.newBufferedReader(config, java.nio.charset.StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (java.io.IOException e) {
      return java.util.Optional.empty(); // load() reports the unreadable file with its reason
    }
    return java.util.Optional.ofNullable(p.getProperty(key)).filter(v -> !v.isBlank());
  }

  /** The checked configuration; throws ConfigException naming a bad setting. */
  ServerConfig load(Map<String, String> moreOverrides) {
    Map<String, String> overrides = new HashMap<>(moreOverrides);
    if (dataDir != null) {
      overrides.put("data.dir", dataDir.toString());
    }
    ServerConfig loaded = new ServerConfigLoader().load(config, overrides);
    ComputeBackends.check(loaded); // which backends exist is the backends' business, not config's
    return loaded;
  }
}
