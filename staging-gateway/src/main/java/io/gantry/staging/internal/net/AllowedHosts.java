package io.gantry.staging.internal.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which hosts and ports staging may connect to ({@code staging.allowed-hosts}).
 *
 * <ol>
 *   <li>An explicit entry ({@code host}, {@code host:port}) allows its host, matched by name or by
 *       any of its addresses, on its port or on every port.
 *   <li>A target that resolves to a loopback, link-local, wildcard or multicast address is refused
 *       unless an explicit entry allows it: these reach the server's own services and cloud
 *       metadata endpoints, which no default should open.
 *   <li>Otherwise an implicit entry (the hosts and ports of the configured data sources) allows it.
 * </ol>
 */
public final class AllowedHosts {
  private final List<HostPort> explicit;
  private final List<HostPort> implicit;

  public AllowedHosts(List<HostPort> explicit, List<HostPort> implicit) {
    this.explicit = List.copyOf(explicit);
    this.implicit = List.copyOf(implicit);
  }

  /** Why {@code target} may not be reached, or empty; looks the name up (the caller's DNS). */
  public Optional<String> problem(HostPort target) {
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(target.host());
    } catch (UnknownHostException e) {
      return Optional.of("staging cannot reach " + target + ": the host name does not resolve");
    }
    if (matches(explicit, target, addresses)) {
      return Optional.empty();
    }
    if (Arrays.stream(addresses).anyMatch(AllowedHosts::isInternal)) {
      return Optional.of(
          "staging may not connect to "
              + target
              + ": it is a loopback or link-local"
              + " address, which only an explicit staging.allowed-hosts entry opens");
    }
    if (matches(implicit, target, addresses)) {
      return Optional.empty();
    }
    return Optional.of(
        "staging may not connect to "
            + target
            + ": it is not in staging.allowed-hosts"
            + " (nor a host of a configured data source)");
  }

  static boolean isInternal(InetAddress a) {
    return a.isLoopbackAddress()
        || a.isLinkLocalAddress()
        || a.isAnyLocalAddress()
        || a.isMulticastAddress();
  }

  private static boolean matches(List<HostPort> entries, HostPort target, InetAddress[] addresses) {
    for (HostPort entry : entries) {
      if (entry.port() != 0 && entry.port() != target.port()) {
        continue;
      }
      if (entry.host().equals(target.host())) {
        return true;
      }
      try {
        for (InetAddress allowed : InetAddress.getAllByName(entry.host())) {
          if (Arrays.asList(addresses).contains(allowed)) {
            return true;
          }
        }
      } catch (UnknownHostException e) {
        // an entry that does not resolve allows nothing by address
      }
    }
    return false;
  }
}
