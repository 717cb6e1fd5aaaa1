package io.gantry.staging.internal.net;

import java.util.Locale;

/**
 * A host and port as staging names them; {@code port} 0 in an allow-list entry means any port.
 * Prints as {@code host:port}, IPv6 literals in brackets.
 */
public record HostPort(String host, int port) {
  public HostPort {
    host = host.strip().toLowerCase(Locale.ROOT);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("host name is empty");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " of " + host + " is outside 0..65535");
    }
  }

  /**
   * {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port}; a bare IPv6 literal (two or
   * more colons) has no port. A missing port becomes {@code defaultPort}.
   */
  public static HostPort parse(String text, int defaultPort) {
    String t = text.strip();
    if (t.startsWith("[")) {
      int close = t.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("'" + text + "' opens [ without closing it");
      }
      String rest = t.substring(close + 1);
      return new HostPort(
          t.substring(1, close), rest.isEmpty() ? defaultPort : port(rest.substring(1), text));
    }
    int colon = t.indexOf(':');
    if (colon < 0 || t.indexOf(':', colon + 1) >= 0) {
      return new HostPort(t, defaultPort);
    }
    return new HostPort(t.substring(0, colon), port(t.substring(colon + 1), text));
  }

  private static int port(String digits, String text) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' has no valid port after the colon");
    }
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
