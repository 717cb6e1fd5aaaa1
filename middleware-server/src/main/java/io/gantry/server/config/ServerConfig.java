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
    boolean demoEnabled,
    int demoPositions,
    int demoSshPort,
    Map<String, NamedDataSource> dataSources,
    Map<String, SshIdentity> sshIdentities,
    Path knownHostsFile,
    boolean acceptUnknownHostKeys) {

  /** The SSH identity of that name, or null. */
  public SshIdentity sshIdentity(String name) {
    return sshIdentities.get(name);
  }

  /** The data source of that name, or null. */
  public NamedDataSource dataSource(String name) {
    return dataSources.get(name);
  }
}
