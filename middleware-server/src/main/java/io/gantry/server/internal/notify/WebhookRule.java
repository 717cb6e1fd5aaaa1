package io.gantry.server.internal.notify;

import io.gantry.staging.ConnectionPolicy;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;

/**
 * Which webhooks jobs may name: https URLs without a user name, on a host of notify.allowed-hosts
 * (matched as staging matches staging.allowed-hosts). Asked by the JSDL parser when a job is
 * submitted, and again before every post.
 */
public final class WebhookRule {
  private final ConnectionPolicy hosts;

  private WebhookRule(ConnectionPolicy hosts) {
    this.hosts = hosts;
  }

  /** The rule of notify.allowed-hosts ({@code host}, {@code host:port} entries). */
  public static WebhookRule of(List<String> allowedHosts) {
    return new WebhookRule(ConnectionPolicy.of(false, List.of(), allowedHosts, List.of()));
  }

  /** Why {@code url} may not be posted to, or empty; a refused webhook is never contacted. */
  public Optional<String> problem(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return Optional.of("'" + url + "' is not a URL: " + e.getMessage());
    }
    if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
      return Optional.of("'" + url + "' is not an https:// URL");
    }
    if (uri.getUserInfo() != null) {
      return Optional.of("'" + url + "' carries a user name; webhooks are signed instead");
    }
    int port = uri.getPort() == -1 ? 443 : uri.getPort();
    // the staging rule's own words name staging's setting: this refusal names notify's
    return hosts
        .hostProblem(uri.getHost(), port)
        .map(p -> "webhook host " + uri.getHost() + ":" + port + " is not on notify.allowed-hosts");
  }
}
