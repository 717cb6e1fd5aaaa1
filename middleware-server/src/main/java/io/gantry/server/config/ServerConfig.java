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
    Sandbox sandbox) {

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
   * Who jobs run as and what they may run: {@code defaultOsAccount} for users with no OS account
   * of their own (never root, never the server's account), and {@code allowedExecutableRoots},
   * directories of programs bound read-only into every job's sandbox and put on its PATH.
   */
  public record Sandbox(String defaultOsAccount, List<Path> allowedExecutableRoots) {
    public Sandbox {
      allowedExecutableRoots = List.copyOf(allowedExecutableRoots);
    }
  }

  /** The SSH identity of that name, or null. */
  public SshIdentity sshIdentity(String name) {
    return sshIdentities.get(name);
  }

  /** The data source of that name, or null. */
  public NamedDataSource dataSource(String name) {
    return dataSources.get(name);
  }
}
