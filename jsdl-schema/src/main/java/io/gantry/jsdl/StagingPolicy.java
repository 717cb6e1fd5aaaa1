package io.gantry.jsdl;

import java.util.Optional;
import java.util.Set;

/**
 * What a server's operator allows staging to reach, checked by {@link JsdlParser} so that a job is
 * refused at validation, with the element's line and column, and not after queueing. The server
 * implements it from its settings ({@code staging.inline-data-sources}, {@code
 * staging.allowed-jdbc-urls}, {@code staging.allowed-hosts}, {@code staging.sql-functions}); a
 * client without them (the CLI validating offline) uses {@link #CLIENT_SIDE}.
 */
public interface StagingPolicy {
  /** Why a job may not name this inline data source (its JDBC URL), or empty. */
  Optional<String> inlineDataSourceProblem(String jdbcUrl);

  /** Why staging may not connect to {@code host:port} (scp, sftp), or empty. */
  Optional<String> remoteHostProblem(String host, int port);

  /**
   * Why a job's {@code gx:Notify} may not name this webhook (not https, or a host the operator's
   * {@code notify.allowed-hosts} does not list), or empty. The server checks again before it posts.
   */
  default Optional<String> webhookProblem(String url) {
    return Optional.empty();
  }

  /**
   * Why a job's {@code gx:Notify} may not name this mailbox (not one address, or neither it nor its
   * domain on the operator's {@code notify.mail-allowed}), or empty. The server checks again before
   * it sends.
   */
  default Optional<String> mailboxProblem(String address) {
    return Optional.empty();
  }

  /** Functions that staging SQL may call beyond the built-in allow-list, upper case. */
  default Set<String> extraSqlFunctions() {
    return Set.of();
  }

  /**
   * No operator's settings known: URLs and hosts pass here and are judged by the server that
   * receives the job. The SQL checks, which need no settings, still apply.
   */
  StagingPolicy CLIENT_SIDE =
      new StagingPolicy() {
        @Override
        public Optional<String> inlineDataSourceProblem(String jdbcUrl) {
          return Optional.empty();
        }

        @Override
        public Optional<String> remoteHostProblem(String host, int port) {
          return Optional.empty();
        }
      };
}
