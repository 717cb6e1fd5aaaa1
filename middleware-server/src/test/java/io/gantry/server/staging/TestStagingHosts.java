package io.gantry.server.staging;

import java.util.Map;

/**
 * The settings that let staging reach test servers on loopback. Empty until the server has a
 * host rule (staging.allowed-hosts); then each port needs its explicit entry.
 */
final class TestStagingHosts {
  private TestStagingHosts() {}

  static Map<String, String> loopback(int... ports) {
    return Map.of();
  }
}
