package io.gantry.server;

import io.gantry.server.config.ServerConfig;
import io.gantry.staging.GatewayOptions;
import java.nio.file.Path;

/** Lets settings tests in other packages see how the server turns settings into gateway options. */
public final class GantryServerSettingsAccess {
  private GantryServerSettingsAccess() {}

  public static GatewayOptions gatewayOptions(ServerConfig config) {
    return GantryServer.gatewayOptions(config);
  }

  public static Path cacheDirectory(ServerConfig config) {
    return GantryServer.stageInCacheDirectory(config);
  }
}
