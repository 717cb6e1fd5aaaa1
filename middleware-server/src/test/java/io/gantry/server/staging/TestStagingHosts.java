package io.gantry.server.staging;

import java.util.Map;

/**
 * The settings that let staging reach test servers on loopback: loopback needs an explicit
 * staging.allowed-hosts entry, one per port.
 */
final class TestStagingHosts {
  private TestStagingHosts() {}

  static Map<String, String> loopback(int... ports) {
    StringBuilder hosts = new StringBuilder();
    for (int port : ports) {
      hosts.append(hosts.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
    }
    return Map.of("staging.allowed-hosts", hosts.toString());
  }
}
