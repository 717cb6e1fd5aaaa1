package io.gantry.server;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --config} and {@code --data-dir}, shared by the server and its {@code user} commands so
 * that both find the same job store. They may be given before the subcommand
 * ({@code gantry-server --data-dir D user add alice}) or after it; see {@link #orElse}.
 */
final class ConfigurationOptions {
  @Option(names = "--config", paramLabel = "FILE", description = "configuration file (Java properties)")
  Path config;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "data directory (default ~/.gantry-server)")
  Path dataDir;

  /**
   * These options, each one not given here taken from {@code outer} (those given before the
   * subcommand). Without this, options before a subcommand were parsed into the top command,
   * which does not run, and silently ignored: the user went into ~/.gantry-server.
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

  /** The checked configuration; throws ConfigException naming a bad setting. */
  ServerConfig load(Map<String, String> moreOverrides) {
    Map<String, String> overrides = new HashMap<>(moreOverrides);
    if (dataDir != null) {
      overrides.put("data.dir", dataDir.toString());
    }
    return new ServerConfigLoader().load(config, overrides);
  }
}
