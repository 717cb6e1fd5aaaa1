package io.gantry.server.internal.plan;

import io.gantry.jsdl.StagingPolicy;
import io.gantry.staging.ConnectionPolicy;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The server's staging settings as the JSDL parser asks for them, so a job that names a URL or host
 * the operator does not allow is refused by validateJob and submitJob with the element's line and
 * column. The gateway checks the same {@link ConnectionPolicy} again at connect time.
 */
public final class StagingRules implements StagingPolicy {
  private final ConnectionPolicy connections;
  private final Set<String> sqlFunctions;
  private final Function<String, Optional<String>> webhooks;
  private final Function<String, Optional<String>> mailboxes;

  public StagingRules(ConnectionPolicy connections, Set<String> sqlFunctions) {
    this(connections, sqlFunctions, url -> Optional.empty(), address -> Optional.empty());
  }

  /**
   * With the rules of gx:Notify's webhooks (notify.allowed-hosts) and mailboxes
   * (notify.mail-allowed).
   */
  public StagingRules(
      ConnectionPolicy connections,
      Set<String> sqlFunctions,
      Function<String, Optional<String>> webhooks,
      Function<String, Optional<String>> mailboxes) {
    this.connections = connections;
    this.sqlFunctions = Set.copyOf(sqlFunctions);
    this.webhooks = webhooks;
    this.mailboxes = mailboxes;
  }

  @Override
  public Optional<String> mailboxProblem(String address) {
    return mailboxes.apply(address);
  }

  @Override
  public Optional<String> webhookProblem(String url) {
    return webhooks.apply(url);
  }

  @Override
  public Optional<String> inlineDataSourceProblem(String jdbcUrl) {
    return connections.inlineDataSourceProblem(jdbcUrl);
  }

  @Override
  public Optional<String> remoteHostProblem(String host, int port) {
    return connections.hostProblem(host, port);
  }

  @Override
  public Set<String> extraSqlFunctions() {
    return sqlFunctions;
  }
}
