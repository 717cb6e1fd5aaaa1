package io.gantry.server;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --config} and {@code --data-dir}, shared by the server and its {@code user} commands so
 * that both find the same job store.
 */
final class ConfigurationOptions {
  @Option(names = "--config", paramLabel = "FILE", description = "configuration file (Java properties)")
  Path config;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "data directory (default ~/.gantry-server)")
  Path dataDir;

  /** The checked configuration; throws ConfigException naming a bad setting. */
  ServerConfig load(Map<String, String> moreOverrides) {
    Map<String, String> overrides = new HashMap<>(moreOverrides);
    if (dataDir != null) {
      overrides.put("data.dir", dataDir.toString());
    }
    return new ServerConfigLoader().load(config, overrides);
  }
}
