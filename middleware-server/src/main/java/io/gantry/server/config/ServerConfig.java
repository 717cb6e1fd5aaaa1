package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything gantry-server is configured with, checked when loaded ({@link ServerConfigLoader}).
 * Each field corresponds to one setting of the configuration file; see {@code
 * middleware-server/docs/configuration.md}.
 *
 * @param resultsDataSources {@code risk.results-data-sources}, or null when unset (the server's
 *     default: the demo's data source when the demo is on)
 */
public record ServerConfig(
    String listenHost,
    int listenPort,
    Path dataDirectory,
    String jobStoreUrl,
    String jobStoreUser,
    PasswordSource jobStorePassword,
    Duration jobStoreConnectionTimeout,
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
    Admission admission,
    Connections connections,
    Storage storage,
    Sandbox sandbox,
    Staging staging,
    StandardStaging standardStaging,
    Compute compute,
    JsdlResources jsdlResources,
    StageIn stageIn,
    TaskFarms taskFarms,
    Schedules schedules,
    WorkerSessions workerSessions,
    Operations operations,
    Optional<Directory> directory,
    Optional<Oidc> oidc,
    List<String> resultsDataSources,
    SshCertificates sshCertificates,
    Notifications notifications,
    Queues queues,
    Quotas quotas,
    Logging logging) {

  /**
   * One user's or project's quota (the {@code quota.*} settings); each limit empty for none.
   *
   * @param concurrentJobs most unfinished jobs (waiting or running)
   * @param queuedJobs most jobs waiting to start
   * @param coreHoursPerMonth most core-hours in a calendar month (UTC)
   */
  public record Quota(
      Optional<Integer> concurrentJobs,
      Optional<Integer> queuedJobs,
      Optional<Integer> coreHoursPerMonth) {}

  /**
   * Quotas: {@code everyUser} for each limit a user has not their own of in {@code users}, and each
   * listed project's.
   */
  public record Quotas(Quota everyUser, Map<String, Quota> users, Map<String, Quota> projects) {
    public Quotas {
      users = Map.copyOf(users);
      projects = Map.copyOf(projects);
    }
  }

  /**
   * Priority classes (the {@code queue.*} settings): the classes, highest first, the class of a job
   * that names none, and for each class with {@code queue.CLASS.users} the users who may use it.
   */
  public record Queues(List<String> classes, String defaultClass, Map<String, List<String>> users) {
    public Queues {
      classes = List.copyOf(classes);
      users = Map.copyOf(users);
    }
  }

  /**
   * Directory logins (LDAP, Active Directory; the {@code directory.*} settings): where the
   * directory is, how its certificate is trusted, the service account that searches, and how users
   * are found, given roles and OS accounts.
   */
  public record Directory(
      String host,
      int port,
      boolean startTls,
      Optional<Path> caFile,
      Optional<String> bindDn,
      PasswordSource bindPassword,
      String userBase,
      String userFilter,
      Optional<String> userGroup,
      Optional<String> adminGroup,
      Optional<String> osAccountAttribute,
      Duration recheckAfter) {}

  /** OIDC access tokens (the {@code oidc.*} settings). */
  public record Oidc(String issuer, String audience, String userClaim, Optional<Path> caFile) {}

  /**
   * Per-user SSH certificates from the server's user CA (docs/security.md, "Jobs on other hosts"):
   * whether mpirun-hosts logs in with them, the margin over a job's wall time, and the
   * certificates' source-address list (empty: any).
   */
  public record SshCertificates(boolean enabled, Duration margin, List<String> sourceAddresses) {
    public SshCertificates {
      sourceAddresses = List.copyOf(sourceAddresses);
    }
  }

  /**
   * Notifications (docs/operations.md): the hosts webhooks may be posted to ({@code
   * notify.allowed-hosts}), the file of the key that signs them ({@code notify.signing-key-file}),
   * how long an event is retried ({@code notify.max-age}) and the first retry's wait ({@code
   * notify.first-retry}, doubled each time), and the server's address as users reach it, which
   * links in mail start with ({@code server.public-url}, ending in '/'; null: the listening one).
   */
  public record Notifications(
      List<String> allowedHosts,
      Path signingKeyFile,
      java.time.Duration maxAge,
      java.time.Duration firstRetry,
      Mail mail,
      String publicUrl) {
    public Notifications {
      allowedHosts = List.copyOf(allowedHosts);
    }
  }

  /**
   * E-mail notifications (docs/operations.md, "Notifications"): the addresses and domains mail may
   * go to ({@code notify.mail-allowed}), the SMTP server ({@code notify.smtp-host}, null: no mail;
   * {@code notify.smtp-port}), its login ({@code notify.smtp-user}, null: none, and the password
   * read from {@code notify.smtp-password-file} when a mail is sent) and the From address.
   */
  public record Mail(
      List<String> allowed,
      String smtpHost,
      int smtpPort,
      String smtpUser,
      PasswordSource smtpPassword,
      String from) {
    public Mail {
      allowed = List.copyOf(allowed);
    }

    @Override
    public String toString() {
      // the password source names a file only, but a record's toString is no place for secrets
      return "Mail[" + smtpHost + ":" + smtpPort + ", user " + smtpUser + ", from " + from + "]";
    }
  }

  /**
   * The server's log (the {@code log.*} settings; docs/operations.md, "Logs").
   *
   * @param console {@code text}, {@code json} or {@code off}: the log on standard error
   * @param file the log file, if any; rolled over by day and at {@code maxFileSize}
   * @param fileFormat {@code text} or {@code json}
   * @param maxHistoryDays days of rolled-over files kept
   * @param totalSizeCap bytes the rolled-over files take at most together
   */
  public record Logging(
      String console,
      Optional<Path> file,
      String fileFormat,
      long maxFileSize,
      int maxHistoryDays,
      long totalSizeCap) {}

  /**
   * The operations listener (docs/operations.md): {@code ops.listen-host} (loopback) and {@code
   * ops.listen-port} (-1: none; 0: a free port).
   */
  public record Operations(String host, int port) {
    public boolean enabled() {
      return port >= 0;
    }
  }

  /**
   * Sessions of long-lived workers (docs/task-farms.md, "Sessions"; configuration.md, "Worker
   * sessions"): workers per session, open sessions per user, held messages and bytes per session,
   * the longest message, the idle timeout, retries of a message whose worker died, and worker
   * restarts per session.
   */
  public record WorkerSessions(
      int maxWorkers,
      int maxPerUser,
      int maxHeldMessages,
      long maxHeldBytes,
      int maxMessageBytes,
      Duration idleTimeout,
      int messageRetries,
      int workerRestarts) {}

  /**
   * Task farms (docs/task-farms.md): the most tasks of one farm ({@code farm.max-tasks}), the
   * address dispatchers listen on and launchers connect to ({@code farm.dispatcher-host}: loopback
   * for the local backend, an address the compute nodes reach for mpirun-hosts and slurm), and the
   * launcher program ({@code farm.launcher}; null: gantry-launcher on the jobs' PATH), and what a
   * farm's or session's dispatcher lets onto its port before a connection has said a correct HELLO
   * ({@code farm.hello-timeout}, {@code farm.max-unauthenticated}; docs/task-farms.md).
   */
  public record TaskFarms(
      int maxTasks,
      String dispatcherHost,
      Path launcher,
      Duration helloTimeout,
      int maxUnauthenticated) {}

  /**
   * Schedules: how often the server looks for schedules whose time has come ({@code
   * schedules.check-interval}), and for tests a file whose content is the schedules' clock ({@code
   * schedules.test-clock-file}; null: the system clock), accepted only on a loopback listener; and
   * the holiday calendars schedules may name ({@code calendar.NAME.*}), by name.
   */
  public record Schedules(
      java.time.Duration checkInterval,
      Path testClockFile,
      java.util.Map<String, HolidayCalendar> calendars) {
    public Schedules {
      calendars = java.util.Map.copyOf(calendars);
    }
  }

  /**
   * Where holiday calendar {@code name} reads its dates (configuration.md, "Holiday calendars"):
   * either a file of dates, or a query over a named data source read with its reader account.
   *
   * @param file a file of ISO dates, one a line; null for a query
   * @param dataSource the named data source the query runs on; null for a file
   * @param query a SELECT whose first column is the date; null for a file
   * @param refresh how long the query's dates are kept before it runs again (a file is read again
   *     whenever it changes)
   */
  public record HolidayCalendar(
      String name, Path file, String dataSource, String query, java.time.Duration refresh) {}

  /**
   * Stage-in reuse (docs/configuration.md, "Stage-in cache and batched binding"): the stage-in
   * cache under the staging root, at most {@code cacheMaxBytes} ({@code cache.max-bytes}; 0: no
   * cache), and how many input rows of a bound statement go to PostgreSQL in one round trip ({@code
   * staging.bind-batch-rows}; 1: one per row).
   */
  public record StageIn(long cacheMaxBytes, int bindBatchRows) {}

  /**
   * Standard JSDL DataStaging (URIs): the directories {@code file:} URIs may read and write under
   * ({@code staging.file-roots}; none: file: refused), and the certificates https and ftps servers
   * are checked against ({@code staging.trust-store}, a PKCS12 or JKS file with its password in
   * {@code staging.trust-store-password-file}; null: the JDK's trust store).
   */
  public record StandardStaging(
      List<Path> fileRoots, Path trustStore, PasswordSource trustStorePassword) {
    public StandardStaging {
      fileRoots = List.copyOf(fileRoots);
    }
  }

  /**
   * A user's Slurm defaults ({@code slurm.user.NAME.partition}, {@code slurm.user.NAME.account});
   * null: the server's.
   */
  public record SlurmUser(String partition, String account) {}

  /**
   * Where and how jobs run (section "Compute backends" of configuration.md).
   *
   * @param backend {@code compute.backend}: the name of a registered backend, which the backend
   *     factory checks with the settings that backend requires
   * @param sshAgent {@code mpirun.ssh-agent}: the ssh program mpirun starts its daemons with
   * @param sshIdentity {@code mpirun.ssh-identity}: the private key, or null
   * @param sshKnownHosts {@code mpirun.ssh-known-hosts}: host keys checked strictly, or null
   * @param sshUser {@code mpirun.ssh-user}, or null
   * @param sshConfig {@code mpirun.ssh-config}, or null
   * @param slurmBinDirectory {@code slurm.bin-dir}, or null for PATH
   * @param slurmConf {@code slurm.conf}: SLURM_CONF of the client commands, or null
   * @param slurmPollInterval {@code slurm.poll-interval}
   * @param slurmCommandTimeout {@code slurm.command-timeout}
   * @param slurmMpirun {@code slurm.mpirun}: mpirun on the compute nodes
   * @param slurmPartition {@code slurm.partition}, or null
   * @param slurmAccount {@code slurm.account}, or null
   * @param slurmUsers per-user defaults, by Gantry user name
   * @param cluster the cluster reached over SSH that holds the job directories and runs Slurm, or
   *     null: job directories on this host
   */
  public record Compute(
      String backend,
      String sshAgent,
      Path sshIdentity,
      Path sshKnownHosts,
      String sshUser,
      Path sshConfig,
      Path slurmBinDirectory,
      Path slurmConf,
      Duration slurmPollInterval,
      Duration slurmCommandTimeout,
      String slurmMpirun,
      String slurmPartition,
      String slurmAccount,
      Map<String, SlurmUser> slurmUsers,
      Cluster cluster) {}

  /**
   * A cluster reached over SSH ({@code compute.ssh-host} and beside it): job directories under
   * {@code root} on its shared file system, Slurm's commands run on its login node.
   *
   * @param identity the name of an {@code identity.NAME.*} login
   * @param knownHosts the login node's host key, checked strictly
   */
  public record Cluster(
      String host, int port, String user, String identity, Path knownHosts, String root) {}

  /**
   * TLS and user accounts. {@code tlsKeystore} null with TLS on means "generate a self-signed one
   * in the data directory"; {@code adminPassword} None means "generate one and print it once";
   * {@code webSessionIdleTimeout} ends a browser session left alone that long; after {@code
   * failedLoginsBeforeDelay} failures in a row a user and address must wait between attempts.
   */
  public record Security(
      boolean tlsEnabled,
      Path tlsKeystore,
      PasswordSource tlsKeystorePassword,
      boolean authEnabled,
      PasswordSource adminPassword,
      Duration webSessionIdleTimeout,
      int failedLoginsBeforeDelay,
      Duration tokenLifetime) {}

  /**
   * What a caller can make the server read and how logins are throttled (see the section "Request
   * bodies and the login throttle" of configuration.md).
   *
   * @param unauthenticatedBodyBytes the most a SOAP request may carry before its caller is
   *     authenticated ({@code http.unauthenticated-body-bytes})
   * @param soapEnvelopeMarginBytes what a SOAP request may carry beyond {@code
   *     limits.job-definition-bytes} ({@code http.soap-envelope-margin-bytes})
   * @param drainBytes how much of a refused request's body is read and thrown away so that the
   *     client reads the answer ({@code http.drain-bytes})
   * @param drainTime for how long at most ({@code http.drain-time})
   * @param failedLoginsPerUser failures for one user from addresses it has not logged in from
   *     recently before those wait ({@code auth.failed-logins-per-user})
   * @param failedLoginsPerAddress failures from one address before names that have not logged in
   *     from it recently wait ({@code auth.failed-logins-per-address})
   * @param trustedAddressPeriod how long a successful login exempts its address for its user
   *     ({@code auth.trusted-address-period})
   */
  public record Admission(
      long unauthenticatedBodyBytes,
      long soapEnvelopeMarginBytes,
      long drainBytes,
      Duration drainTime,
      int failedLoginsPerUser,
      int failedLoginsPerAddress,
      Duration trustedAddressPeriod) {}

  /**
   * Connections to the HTTP(S) port (docs/security.md, "Idle and slow connections").
   *
   * @param maxConnections connections at once from anywhere; at this many the server stops
   *     accepting and silent connections are closed after {@code busyIdleTimeout} ({@code
   *     http.max-connections})
   * @param maxConnectionsPerAddress connections at once from one address; one more is closed at
   *     once ({@code http.max-connections-per-address})
   * @param idleTimeout how long a connection may stay silent ({@code http.idle-timeout})
   * @param busyIdleTimeout the same while {@code maxConnections} are open ({@code
   *     http.busy-idle-timeout})
   * @param requestHeadTimeout how long a TLS handshake, or the head of a request once its first
   *     byte came, may take ({@code http.request-head-timeout})
   * @param minRequestDataRate bytes per second below which a request body is cut off, 0 for no
   *     bound ({@code http.min-request-data-rate})
   * @param threadsPerAddress requests from one address handled at once ({@code
   *     http.threads-per-address})
   */
  public record Connections(
      int maxConnections,
      int maxConnectionsPerAddress,
      Duration idleTimeout,
      Duration busyIdleTimeout,
      Duration requestHeadTimeout,
      int minRequestDataRate,
      int threadsPerAddress) {}

  /**
   * Disk bounds and the server's watch over its own storage. A job whose staged input grows past
   * {@code jobStagedBytes}, or whose program writes more than {@code jobOutputBytes} into its job
   * directory, is stopped; a job whose stage-in would start with less than {@code minFreeBytes}
   * free on the staging file system fails at once; a WallTimeLimit above {@code maxWallTime} is a
   * validation error; finished jobs' directories are removed {@code retention} after they ended;
   * the data directory and job store are checked every {@code checkInterval}.
   */
  public record Storage(
      long jobStagedBytes,
      long jobOutputBytes,
      long minFreeBytes,
      Duration maxWallTime,
      Duration retention,
      Duration checkInterval) {}

  /**
   * Who jobs run as and what they may run: {@code defaultOsAccount} for users with no OS account of
   * their own (never root, never the server's account), and {@code allowedExecutableRoots},
   * directories of programs bound read-only into every job's sandbox and put on its PATH; {@code
   * supervisor} ({@code jobs.supervisor}), the {@code gantry-stepd} each local job runs under so
   * that it outlives the server, or null: local jobs are the server's children and end with it;
   * {@code requireNodeSandbox} ({@code compute.require-sandbox}), whether a compute node without
   * bubblewrap refuses a job ({@code mpirun-hosts}, {@code slurm}) rather than running it there
   * unconfined.
   */
  public record Sandbox(
      String defaultOsAccount,
      List<Path> allowedExecutableRoots,
      Path supervisor,
      boolean requireNodeSandbox) {
    public Sandbox {
      allowedExecutableRoots = List.copyOf(allowedExecutableRoots);
    }
  }

  /**
   * What staging may connect to (docs/configuration.md, "Data sources and staging targets").
   *
   * @param inlineDataSources whether a job may bring its own JDBC URL
   * @param allowedJdbcUrls globs an inline URL (without its options) must match
   * @param allowedHosts explicit {@code host} or {@code host:port} entries staging may reach
   * @param sqlFunctions functions staging SQL may call beyond the built-in allow-list
   * @param checkConnections whether a job's databases are connected to once when it is submitted or
   *     validated ({@code staging.check-connections})
   * @param connectTimeout how long one attempt to connect to a data source or SSH host may take
   *     ({@code staging.connect-timeout})
   */
  public record Staging(
      boolean inlineDataSources,
      List<String> allowedJdbcUrls,
      List<String> allowedHosts,
      java.util.Set<String> sqlFunctions,
      boolean checkConnections,
      Duration connectTimeout) {}

  /**
   * What standard JSDL may refer to by name (see "Named applications and file systems" in
   * configuration.md).
   *
   * @param applications the named applications ({@code application.ID.*}), in id order
   * @param fileSystems directory of each {@code Resources/FileSystem} name ({@code
   *     filesystem.NAME.path}); a DataStaging FileName with that FilesystemName lands there
   * @param readOnlyFileSystems the names whose directory a job's sandbox shows read-only ({@code
   *     filesystem.NAME.read-only=true}); staging does not write them either
   * @param stagingWritableFileSystems the read-only ones staging may still write ({@code
   *     filesystem.NAME.staging-writes=true})
   */
  public record JsdlResources(
      List<NamedApplication> applications,
      Map<String, Path> fileSystems,
      java.util.Set<String> readOnlyFileSystems,
      java.util.Set<String> stagingWritableFileSystems) {
    public JsdlResources {
      applications = List.copyOf(applications);
      fileSystems = Map.copyOf(fileSystems);
      readOnlyFileSystems = java.util.Set.copyOf(readOnlyFileSystems);
      stagingWritableFileSystems = java.util.Set.copyOf(stagingWritableFileSystems);
    }

    public JsdlResources(
        List<NamedApplication> applications,
        Map<String, Path> fileSystems,
        java.util.Set<String> readOnlyFileSystems) {
      this(applications, fileSystems, readOnlyFileSystems, java.util.Set.of());
    }

    public JsdlResources(List<NamedApplication> applications, Map<String, Path> fileSystems) {
      this(applications, fileSystems, java.util.Set.of());
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
