package io.gantry.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Whether listen.host is a loopback address: plain HTTP, no accounts and the demo are allowed only
 * there.
 */
final class Loopback {
  private Loopback() {}

  static boolean is(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new ConfigException("listen.host", "unknown host " + host);
    }
  }
}
