package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything gantry-server is configured with, checked when loaded ({@link ServerConfigLoader}).
 * Each field corresponds to one setting of the configuration file; see
 * {@code middleware-server/docs/configuration.md}.
 */
public record ServerConfig(
    String listenHost,
    int listenPort,
    Path dataDirectory,
    String jobStoreUrl,
    String jobStoreUser,
    PasswordSource jobStorePassword,
    Path stagingRoot,
    String mpirunPath,
    List<String> mpirunOptions,
    Path hostFile,
    int totalSlots,
    int stagingParallelism,
    int sqlThreadsPerJob,
    Duration defaultWallTime,
    Duration killGracePeriod,
    long maxJobDefinitionBytes,
    int maxQueuedJobsPerUser,
    int maxConcurrentRequestsPerUser,
    boolean demoEnabled,
    int demoPositions,
    int demoSshPort,
    Map<String, NamedDataSource> dataSources,
    Map<String, SshIdentity> sshIdentities,
    Path knownHostsFile,
    boolean acceptUnknownHostKeys,
    Security security,
    Staging staging) {

  /**
   * TLS and user accounts. {@code tlsKeystore} null with TLS on means "generate a self-signed one
   * in the data directory"; {@code adminPassword} None means "generate one and print it once";
   * {@code webSessionIdleTimeout} ends a browser session left alone that long; after {@code
   * failedLoginsBeforeDelay} failures in a row a user and address must wait between attempts.
   */
  public record Security(boolean tlsEnabled, Path tlsKeystore, PasswordSource tlsKeystorePassword,
      boolean authEnabled, PasswordSource adminPassword, Duration webSessionIdleTimeout,
      int failedLoginsBeforeDelay) {}

  /**
   * What staging may connect to (docs/configuration.md, "Data sources and staging targets").
   *
   * @param inlineDataSources whether a job may bring its own JDBC URL
   * @param allowedJdbcUrls globs an inline URL (without its options) must match
   * @param allowedHosts explicit {@code host} or {@code host:port} entries staging may reach
   * @param sqlFunctions functions staging SQL may call beyond the built-in allow-list
   */
  public record Staging(boolean inlineDataSources, List<String> allowedJdbcUrls, List<String> allowedHosts,
      java.util.Set<String> sqlFunctions) {}

  /** The SSH identity of that name, or null. */
  public SshIdentity sshIdentity(String name) {
    return sshIdentities.get(name);
  }

  /** The data source of that name, or null. */
  public NamedDataSource dataSource(String name) {
    return dataSources.get(name);
  }
}
