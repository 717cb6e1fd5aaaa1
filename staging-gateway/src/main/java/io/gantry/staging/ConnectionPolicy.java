package io.gantry.staging;

import io.gantry.staging.internal.net.AllowedHosts;
import io.gantry.staging.internal.net.HostPort;
import io.gantry.staging.internal.net.InlineJdbcUrl;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What staging may connect to, as an operator set it: whether jobs may bring their own JDBC URL
 * (inline data sources), which URLs, and which hosts and ports. Checked twice: when a job is
 * validated (so it is refused before queueing, at the element's position) and again at the moment
 * of connecting (a queued job is judged by the rules in force when it runs, and a name that
 * resolves differently now is caught).
 *
 * <p>Named data sources are the operator's own and are not checked here.
 */
public final class ConnectionPolicy {
  private final boolean inlineDataSources;
  private final List<String> urlPatterns;
  private final List<Pattern> urls;
  private final AllowedHosts hosts;

  private ConnectionPolicy(
      boolean inlineDataSources, List<String> urlPatterns, AllowedHosts hosts) {
    this.inlineDataSources = inlineDataSources;
    this.urlPatterns = List.copyOf(urlPatterns);
    this.urls = urlPatterns.stream().map(ConnectionPolicy::glob).toList();
    this.hosts = hosts;
  }

  /**
   * @param inlineDataSources whether job descriptions may carry a JDBC URL at all
   * @param allowedJdbcUrls globs the URL without its options must match (see {@link #glob})
   * @param allowedHosts explicit {@code host} or {@code host:port} entries
   * @param configuredUrls JDBC URLs of the named data sources: their hosts and ports are allowed
   *     too, unless loopback or link-local
   * @throws IllegalArgumentException naming the entry that is not a host or host:port
   */
  public static ConnectionPolicy of(
      boolean inlineDataSources,
      List<String> allowedJdbcUrls,
      List<String> allowedHosts,
      List<String> configuredUrls) {
    List<HostPort> explicit = allowedHosts.stream().map(h -> HostPort.parse(h, 0)).toList();
    List<HostPort> implicit = new ArrayList<>();
    for (String url : configuredUrls) {
      implicit.addAll(hostsOf(url));
    }
    return new ConnectionPolicy(
        inlineDataSources, allowedJdbcUrls, new AllowedHosts(explicit, implicit));
  }

  /** Everything allowed: for tests and tools of an operator who trusts every plan. */
  public static ConnectionPolicy unrestricted() {
    return new ConnectionPolicy(true, List.of("*"), null);
  }

  /** Why a job may not use this inline JDBC URL, or empty. */
  public Optional<String> inlineDataSourceProblem(String jdbcUrl) {
    if (hosts == null) {
      return Optional.empty();
    }
    if (!inlineDataSources) {
      return Optional.of(
          "inline data sources are turned off on this server (staging.inline-data-sources=false);"
              + " name a data source configured on the server with DataSourceRef");
    }
    InlineJdbcUrl url;
    try {
      url = InlineJdbcUrl.parse(jdbcUrl);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    if (urls.stream().noneMatch(p -> p.matcher(url.base()).matches())) {
      return Optional.of(
          DataSourceSpec.redactUrl(url.base())
              + " matches none of the patterns in"
              + " staging.allowed-jdbc-urls"
              + (urlPatterns.isEmpty() ? " (none are set)" : ""));
    }
    for (HostPort host : url.hosts()) {
      Optional<String> problem = hosts.problem(host);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  /** Why staging may not connect to {@code host:port} (scp, sftp), or empty. */
  public Optional<String> hostProblem(String host, int port) {
    if (hosts == null) {
      return Optional.empty();
    }
    try {
      return hosts.problem(new HostPort(host, port));
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The hosts and ports an inline URL connects to, for a connection error; empty if unreadable. */
  static List<HostPort> hostsOf(String jdbcUrl) {
    try {
      return InlineJdbcUrl.parse(jdbcUrl).hosts();
    } catch (IllegalArgumentException e) {
      return List.of(); // a configured URL of another driver or form adds no host
    }
  }

  /**
   * A glob, matched case-insensitively against the whole URL without its options: {@code *} stands
   * for any characters within one part (no {@code / : , ; ? & @}), {@code **} for any characters at
   * all; everything else is literal.
   */
  static Pattern glob(String glob) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
        regex.append(".*");
        i++;
      } else if (c == '*') {
        regex.append("[^/:,;?&@]*");
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE);
  }

  @Override
  public String toString() {
    return "ConnectionPolicy[inline=" + inlineDataSources + ", urls=" + urlPatterns + "]";
  }
}
