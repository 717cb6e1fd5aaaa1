package io.gantry.server;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.OsAccounts;
import io.gantry.dispatcher.SandboxConfig;
import io.gantry.dispatcher.SandboxProbe;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParserOptions;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.ServerInfo;
import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.SshIdentity;
import io.gantry.server.config.StandardStagingSettings;
import io.gantry.server.internal.accounting.AccountingService;
import io.gantry.server.internal.accounting.SubmissionQuotas;
import io.gantry.server.internal.accounts.JobAccounts;
import io.gantry.server.internal.compute.BackendContext;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputeBackends;
import io.gantry.server.internal.credentials.ServerCredentials;
import io.gantry.server.internal.datadirectory.JobDirectoryRetention;
import io.gantry.server.internal.datadirectory.JobDiskLimits;
import io.gantry.server.internal.datadirectory.PrivateDataDirectory;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.internal.demo.DemoRemoteHost;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.server.internal.h2.H2FileSync;
import io.gantry.server.internal.http.GantryHttpServer;
import io.gantry.server.internal.http.ListeningSocket;
import io.gantry.server.internal.http.SoapEndpoint;
import io.gantry.server.internal.http.StorageOutageFilter;
import io.gantry.server.internal.identity.IdentityWiring;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.StoreNeighbours;
import io.gantry.server.internal.metrics.ServerMetrics;
import io.gantry.server.internal.notify.MailRule;
import io.gantry.server.internal.notify.Notifications;
import io.gantry.server.internal.notify.NotifySubscriptionBook;
import io.gantry.server.internal.notify.WebhookRule;
import io.gantry.server.internal.pipeline.JsdlJobPipeline;
import io.gantry.server.internal.plan.ApplicationRegistry;
import io.gantry.server.internal.plan.FileSystemRoots;
import io.gantry.server.internal.plan.JobPlanner;
import io.gantry.server.internal.plan.JsdlJobPlan;
import io.gantry.server.internal.plan.StagingRules;
import io.gantry.server.internal.risk.LimitBreaches;
import io.gantry.server.internal.risk.RiskResults;
import io.gantry.server.internal.risk.RiskViewService;
import io.gantry.server.internal.scheduler.DependencyGate;
import io.gantry.server.internal.scheduler.MetaScheduler;
import io.gantry.server.internal.scheduler.QueueClasses;
import io.gantry.server.internal.schedules.FileClock;
import io.gantry.server.internal.schedules.HolidayCalendars;
import io.gantry.server.internal.schedules.ScheduleBook;
import io.gantry.server.internal.schedules.ScheduleRunner;
import io.gantry.server.internal.security.FirstAdmin;
import io.gantry.server.internal.security.LoginThrottle;
import io.gantry.server.internal.security.PasswordKeyPair;
import io.gantry.server.internal.security.SessionTokenAuthenticator;
import io.gantry.server.internal.security.TlsKeystore;
import io.gantry.server.internal.security.UserAdministration;
import io.gantry.server.internal.service.ChainRerun;
import io.gantry.server.internal.service.JobControl;
import io.gantry.server.internal.service.JobFileReader;
import io.gantry.server.internal.service.JobFlow;
import io.gantry.server.internal.service.JobOutputs;
import io.gantry.server.internal.service.JobSubmission;
import io.gantry.server.internal.service.JobWaits;
import io.gantry.server.internal.service.StoredJobDirectories;
import io.gantry.server.internal.service.VisibleJobs;
import io.gantry.server.internal.sshca.RevokedCertificates;
import io.gantry.server.internal.sshca.UserCertificateAuthority;
import io.gantry.server.internal.stagein.StageInCacheAdministration;
import io.gantry.server.internal.storagewatch.StorageWatch;
import io.gantry.server.internal.taskfarm.TaskFarmRunner;
import io.gantry.server.internal.users.RemovedUserCertificates;
import io.gantry.server.internal.users.SessionTokenService;
import io.gantry.server.internal.users.UserAdministrationService;
import io.gantry.server.internal.workersession.WorkerSessionLaunch;
import io.gantry.server.internal.workersession.WorkerSessionService;
import io.gantry.server.internal.workersession.WorkerSessions;
import io.gantry.server.web.RefusedRequest;
import io.gantry.server.web.WebFace;
import io.gantry.server.web.WebFaceContext;
import io.gantry.staging.ConnectionCheck;
import io.gantry.staging.ConnectionPolicy;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.StageInCache;
import io.gantry.staging.StagingGateway;
import io.gantry.staging.UriStagingPolicy;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.FilterMapping;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gantry-server assembled from its configuration: job store, demo database, staging gateway,
 * dispatcher, meta-scheduler, SOAP service and HTTP server. Started by {@link #start}; closing it
 * stops everything in reverse order.
 */
public final class GantryServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GantryServer.class);
  public static final String VERSION = "0.1.0";

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private GantryHttpServer http;

  /** Requests waiting for a job's end (waitForJob); owned once the HTTP server is. */
  private final JobWaits jobWaits = new JobWaits(JobWaits.DEFAULT_LIMIT, JobWaits.LONGEST);

  private DemoRemoteHost demoHost;
  private Optional<String> tlsFingerprint = Optional.empty();

  private GantryServer() {}

  /** Builds and starts a server; on failure, whatever was started is stopped again. */
  public static GantryServer start(ServerConfig config) throws Exception {
    ComputeBackends.check(config); // before anything is started, so a refusal leaves nothing
    FaultPoint.announce(); // a test's fault injection, or nothing
    GantryServer server = new GantryServer();
    try {
      server.startComponents(config);
      return server;
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
  }

  /** The stage-in cache: beneath the staging root, so every compute host sharing it sees it. */
  static Path stageInCacheDirectory(ServerConfig config) {
    return config.stagingRoot().resolve(".stage-in-cache");
  }

  /**
   * How long a data source that accepted a credential at submission is believed to accept it again:
   * a burst of submissions costs the database one login, a changed password is noticed within a
   * minute.
   */
  static final java.time.Duration CONNECTION_CHECK_MEMORY = java.time.Duration.ofSeconds(60);

  /**
   * The staging gateway's settings: host keys, staging.sql-threads steps at once per job, and
   * staging.connect-timeout for one connection attempt.
   */
  static GatewayOptions gatewayOptions(ServerConfig config) {
    GatewayOptions defaults = GatewayOptions.defaults();
    return defaults
        .withKnownHosts(config.knownHostsFile(), config.acceptUnknownHostKeys())
        .withThreads(config.sqlThreadsPerJob(), defaults.compressionThreads())
        .withRetries(
            config.staging().connectTimeout(), defaults.connectAttempts(), defaults.retryBackoff())
        .withBindBatchRows(config.stageIn().bindBatchRows());
  }

  /** The server's storage: its data directory, job store, storage watch and directory retention. */
  private record Storage(
      PrivateDataDirectory privateData,
      JdbcJobStore store,
      StorageWatch watch,
      JobDirectoryRetention retention) {}

  /** What staging reaches and with which credentials, and the gateway that does it. */
  private record Staging(
      Map<String, SshIdentity> identities,
      PasswordKeyPair passwordKey,
      ServerCredentials credentials,
      ConnectionPolicy connections,
      UriStagingPolicy uriPolicy,
      StagingGateway gateway,
      StageInCache stageInCache,
      RiskResults riskResults) {}

  /** Where and as whom jobs run: the sandbox, the jobs' OS accounts and the compute backend. */
  private record Compute(SandboxConfig sandbox, JobAccounts accounts, ComputeBackend backend) {}

  /** How a job description becomes a plan. */
  private record Planning(
      ApplicationRegistry applications, JsdlParser parser, JobPlanner planner) {}

  /** Starts the server's parts in the order of the data path, each phase from the ones before. */
  private void startComponents(ServerConfig config) throws Exception {
    // first of all: a port another process holds is named before anything is made or opened,
    // and stays this server's while the rest starts
    ListeningSocket listening =
        own(ListeningSocket.bind(config.listenHost(), config.listenPort(), "listen.port"));
    ServerMetrics metrics = new ServerMetrics(); // ops: docs/operations.md
    Storage storage = startStorage(config);
    Staging staging = startStaging(config);
    staging.gateway().useJobOutputs(new StoredJobDirectories(storage.store())); // gantry-job:
    Compute compute = startCompute(config, storage, staging);
    Planning planning = planning(config, staging, compute);
    MetaScheduler<JsdlJobPlan> scheduler =
        startScheduler(config, storage, staging, compute, planning, metrics);
    Optional<UserAuthenticator> authenticator = authentication(config, storage, metrics);
    JobManagementService service =
        startServices(config, storage, staging, compute, planning, scheduler, authenticator);
    startHttp(config, listening, storage, staging, service, authenticator);
    OperationsWiring.start(config, metrics, storage.store(), storage.watch(), compute.backend())
        .ifPresent(this::own); // ops listener
    own(Notifications.start(config, storage.store(), jobManagementUrl())); // docs/operations.md
    storage.privateData().tighten(); // keys, keystore, demo databases made on this start
  }

  /** The data directory kept owner-only, the job store, and the watch over both. */
  private Storage startStorage(ServerConfig config) throws Exception {
    ServerConfig.Storage limits = config.storage();
    Optional<Path> h2Store = h2StoreBase(config);
    PrivateDataDirectory privateData = privateDataDirectory(config);
    privateData.prepare();
    privateData.check();
    privateData.tighten();
    JdbcJobStore store = own(JdbcJobStore.open(storeSettings(config)));
    privateData.tighten(); // a new H2 store file has the process umask's mode
    // an empty PostgreSQL store beside the data directory's H2 store with users and jobs: say so
    Optional<String> leftBehind =
        StoreNeighbours.leftBehind(
            store,
            config.jobStoreUrl(),
            config.dataDirectory().resolve("jobstore").resolve("gantry"));
    if (leftBehind.isPresent()) {
      throw new ConfigException("store.url", leftBehind.get());
    }
    Map<String, Path> watched = new java.util.LinkedHashMap<>(); // messages name them in this order
    watched.put("the data directory", config.dataDirectory());
    watched.put("the job directories' root", config.stagingRoot());
    StorageWatch watch =
        own(
            new StorageWatch(
                watched,
                h2Store.map(base -> Path.of(base + ".mv.db")).orElse(null),
                store::probeWrite,
                limits.checkInterval()));
    watch.start();
    JobDirectoryRetention retention =
        own(
            new JobDirectoryRetention(
                store, config.stagingRoot(), limits.retention(), Clock.systemUTC()));
    retention.start(min(Duration.ofMinutes(10), limits.checkInterval().multipliedBy(12)));
    return new Storage(privateData, store, watch, retention);
  }

  /** The data sources and identities (the demo's among them), and the gateway that stages. */
  private Staging startStaging(ServerConfig config) throws Exception {
    Map<String, NamedDataSource> dataSources = dataSources(config);
    RiskResults riskResults = riskResults(config, dataSources); // docs/risk-view.md
    Map<String, SshIdentity> identities = new HashMap<>(config.sshIdentities());
    if (config.demoEnabled() && !identities.containsKey(DemoRemoteHost.IDENTITY)) {
      startDemoRemoteHost(config)
          .ifPresent(host -> identities.put(DemoRemoteHost.IDENTITY, host.identity()));
    }
    PasswordKeyPair passwordKey =
        PasswordKeyPair.loadOrCreate(config.dataDirectory().resolve("keys"));
    // the SSH user CA exists from the first start, so that its key can go to the hosts first
    UserCertificateAuthority.loadOrCreate(config.dataDirectory().resolve("keys"));
    ServerCredentials credentials = new ServerCredentials(dataSources, identities, passwordKey);
    ConnectionPolicy connections = connectionPolicy(config, dataSources);
    // standard DataStaging (URIs) passes the same host rule as scp/sftp and inline data sources
    UriStagingPolicy uriPolicy =
        StandardStagingSettings.policy(config.standardStaging(), connections::hostProblem);
    StagingGateway gateway =
        own(new StagingGateway(credentials, gatewayOptions(config), connections, uriPolicy));
    StageInCache stageInCache =
        config.stageIn().cacheMaxBytes() > 0
            ? StageInCache.open(stageInCacheDirectory(config), config.stageIn().cacheMaxBytes())
            : null;
    gateway.useCache(stageInCache);
    // a data source that is an H2 file lives in this JVM: a kill -9 is its crash too
    gateway.useDurableCommit(new H2FileSync());
    return new Staging(
        identities,
        passwordKey,
        credentials,
        connections,
        uriPolicy,
        gateway,
        stageInCache,
        riskResults);
  }

  /** The configured data sources, and the demo market's when the demo is on. */
  private static Map<String, NamedDataSource> dataSources(ServerConfig config) throws Exception {
    Map<String, NamedDataSource> dataSources = new HashMap<>(config.dataSources());
    if (config.demoEnabled() && !dataSources.containsKey(DemoMarket.DATA_SOURCE_NAME)) {
      DemoMarket demo =
          new DemoMarket(config.dataDirectory().resolve("demo"), config.demoPositions());
      if (demo.createIfMissing()) {
        log.info(
            "created (or upgraded) the demo market database ({} positions a business date)",
            config.demoPositions());
      }
      dataSources.put(DemoMarket.DATA_SOURCE_NAME, demo.dataSource());
    }
    return dataSources;
  }

  /** The jobs' sandbox and accounts, checked, and the compute backend that starts them. */
  private Compute startCompute(ServerConfig config, Storage storage, Staging staging)
      throws Exception {
    SandboxConfig sandbox =
        SandboxConfig.defaults().withExecutableRoots(config.sandbox().allowedExecutableRoots());
    JdbcJobStore store = storage.store();
    JobAccounts accounts =
        JobAccounts.of(store.userAccounts(), config.sandbox().defaultOsAccount());
    checkJobAccounts(config, store, sandbox);
    DispatcherConfig dispatch =
        new DispatcherConfig(
            config.mpirunPath(),
            config.mpirunOptions(),
            config.totalSlots() > Runtime.getRuntime().availableProcessors(),
            config.killGracePeriod(),
            DispatcherConfig.DEFAULT_INHERITED_ENVIRONMENT,
            sandbox);
    ComputeBackend backend =
        own(
            ComputeBackends.create(
                new BackendContext(
                    config,
                    dispatch,
                    staging.credentials()::clusterLogin,
                    gatewayOptions(config),
                    staging.identities().keySet())));
    return new Compute(sandbox, accounts, backend);
  }

  /** The parser and the planner, with the applications and file systems jobs may name. */
  private static Planning planning(ServerConfig config, Staging staging, Compute compute) {
    ApplicationRegistry applications =
        ApplicationRegistry.withBuiltIns(
            config.jsdlResources().applications(),
            ApplicationRegistry.onPath(ApplicationRegistry.MCVAR, jobPath(config)));
    JsdlParser parser =
        new JsdlParser(
            ParserOptions.defaults()
                .withMaxBytes(config.maxJobDefinitionBytes())
                .withMaxWallTime(config.storage().maxWallTime())
                .withMaxFarmTasks(config.taskFarms().maxTasks()),
            new StagingRules(
                staging.connections(),
                config.staging().sqlFunctions(),
                WebhookRule.of(config.notifications().allowedHosts())::problem,
                MailRule.of(config.notifications().mail().allowed())::problem));
    JobPlanner planner =
        new JobPlanner(
                compute.backend().directories().root(),
                config.defaultWallTime(),
                staging.credentials(),
                compute.accounts(),
                compute.sandbox(),
                compute.backend().policy())
            .withUriStaging(staging.uriPolicy())
            .withConnectionCheck(connectionCheck(config, staging))
            .withAccountReach(compute.backend()::accountReachProblem)
            .withStandardJsdl(
                applications,
                new FileSystemRoots(
                    config.jsdlResources().fileSystems(),
                    config.jsdlResources().readOnlyFileSystems(),
                    config.jsdlResources().stagingWritableFileSystems()))
            .withTaskFarms(farmLauncher(config));
    return new Planning(applications, parser, planner);
  }

  /** The submission-time check of a job's data sources (staging.check-connections); null: off. */
  private static ConnectionCheck connectionCheck(ServerConfig config, Staging staging) {
    return config.staging().checkConnections()
        ? new ConnectionCheck(
            staging.credentials(),
            staging.connections(),
            gatewayOptions(config).connectTimeout(),
            CONNECTION_CHECK_MEMORY,
            java.time.Clock.systemUTC())
        : null;
  }

  /** The pipeline (stage in, run, stage out) under the meta-scheduler, which recovers its jobs. */
  private MetaScheduler<JsdlJobPlan> startScheduler(
      ServerConfig config,
      Storage storage,
      Staging staging,
      Compute compute,
      Planning planning,
      ServerMetrics metrics) {
    ServerConfig.Storage limits = config.storage();
    JdbcJobStore store = storage.store();
    JsdlJobPipeline pipeline = pipeline(config, store, staging, compute, planning);
    pipeline.recordingTo(metrics); // ops: staging rows, bytes, seconds, cache
    JobDiskLimits<JsdlJobPlan> diskLimits =
        own(
            new JobDiskLimits<>(
                pipeline,
                JsdlJobPlan::jobDirectory,
                store,
                limits.jobStagedBytes(),
                limits.jobOutputBytes(),
                // staging.min-free-bytes is the server's staging file system's, which a cluster's
                // job directories (compute.root) are not on
                compute.backend().directories().cluster().isPresent() ? 0 : limits.minFreeBytes()));
    MetaScheduler<JsdlJobPlan> scheduler =
        own(
            new MetaScheduler<>(
                store,
                diskLimits,
                config.totalSlots(),
                config.stagingParallelism(),
                config.killGracePeriod(),
                new DependencyGate(store, store.jobConditions()),
                queueClasses(config)));
    scheduler.recordingTo(metrics); // ops: queue wait, run time
    pipeline.stoppingStreamsWith(scheduler::stop); // a failed stream fails its consumer
    scheduler.recover();
    diskLimits.watch(scheduler, limits.checkInterval());
    return scheduler;
  }

  /** Stage in, run and stage out, task farms among them. */
  private JsdlJobPipeline pipeline(
      ServerConfig config,
      JdbcJobStore store,
      Staging staging,
      Compute compute,
      Planning planning) {
    // owned before the scheduler, so closed after it: the scheduler stops first and a farm whose
    // launchers then end stays RUNNING, for the next server to resume from its journal
    TaskFarmRunner farms =
        own(
            new TaskFarmRunner(
                config.stagingRoot(), config.taskFarms(), store, config.killGracePeriod()));
    return new JsdlJobPipeline(
            planning.parser(),
            planning.planner(),
            staging.gateway(),
            store,
            compute.backend(),
            new LimitBreaches(staging.riskResults(), store.outbox())::stagedOut) // risk-view.md
        .withTaskFarms(farms);
  }

  /** With auth.enabled: the first administrator, and the authenticator of every request. */
  private static Optional<UserAuthenticator> authentication(
      ServerConfig config, Storage storage, ServerMetrics metrics) {
    ServerConfig.Security security = config.security();
    if (!security.authEnabled()) {
      return Optional.empty();
    }
    JdbcJobStore store = storage.store();
    new FirstAdmin(store.userAccounts(), security.adminPassword()).createIfNoUsers();
    ServerConfig.Admission admission = config.admission();
    UserAuthenticator authenticator =
        new UserAuthenticator(
            store.userAccounts(),
            new LoginThrottle(
                new LoginThrottle.Policy(
                    security.failedLoginsBeforeDelay(),
                    admission.failedLoginsPerUser(),
                    admission.failedLoginsPerAddress(),
                    admission.trustedAddressPeriod())),
            Optional.of(
                new SessionTokenAuthenticator(
                    store.sessionTokens(),
                    store.userAccounts(),
                    security.tokenLifetime(),
                    Clock.systemUTC())));
    authenticator.countFailuresIn(metrics); // ops: login failures
    IdentityWiring.connect(config, authenticator); // directory logins, OIDC access tokens
    return Optional.of(authenticator);
  }

  /** The SOAP service's operations, one service a concern, and the schedules' runner. */
  private JobManagementService startServices(
      ServerConfig config,
      Storage storage,
      Staging staging,
      Compute compute,
      Planning planning,
      MetaScheduler<JsdlJobPlan> scheduler,
      Optional<UserAuthenticator> authenticator) {
    JdbcJobStore store = storage.store();
    VisibleJobs visible = new VisibleJobs(store);
    JobFlow flow = new JobFlow(store, store.jobConditions(), scheduler);
    JobSubmission submission =
        submission(config, storage, staging, planning, scheduler, flow, visible);
    JobOutputs outputs =
        new JobOutputs(
            store,
            planning.parser(),
            planning.planner(),
            storage.retention(),
            jobFileReader(compute.backend()));
    WorkerSessions workerSessions = startWorkerSessions(config, compute, planning);
    ScheduleBook schedules = startSchedules(config, store, submission);
    store.onDurableWrite(jobWaits::changed);
    JobControl control =
        new JobControl(
            store, scheduler, flow, config.killGracePeriod(), visible, outputs, jobWaits);
    return new JobManagementService(
        new JobManagementService.Operations(
            submission,
            control,
            outputs,
            visible,
            schedules,
            new UserAdministrationService(
                new UserAdministration(store.userAccounts()), removedUsers(config, store)),
            new SessionTokenService(authenticator.flatMap(UserAuthenticator::sessionTokens)),
            new WorkerSessionService(workerSessions),
            new StageInCacheAdministration(staging.stageInCache()),
            new RiskViewService(staging.riskResults()),
            new ChainRerun(store, store.jobConditions(), visible, submission, control),
            NotifySubscriptionBook.of(config, store),
            new AccountingService(store.accounting())));
  }

  /**
   * With per-user certificates, the key revocation list a removed user's jobs are written to
   * (written empty at start, so that sshd's RevokedKeys can name it at once); else null.
   */
  private static RemovedUserCertificates removedUsers(ServerConfig config, JdbcJobStore store) {
    if (!config.sshCertificates().enabled()) {
      return null;
    }
    RevokedCertificates revoked = new RevokedCertificates(config.dataDirectory().resolve("keys"));
    try {
      revoked.ensureExists();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(
          "cannot write the key revocation list " + revoked.file(), e);
    }
    return new RemovedUserCertificates(store, revoked, config.sandbox().defaultOsAccount());
  }

  /** The priority classes of the queue.* settings, as the scheduler and submission use them. */
  private static QueueClasses queueClasses(ServerConfig config) {
    ServerConfig.Queues queues = config.queues();
    Map<String, Set<String>> users = new HashMap<>();
    queues.users().forEach((name, list) -> users.put(name, Set.copyOf(list)));
    return new QueueClasses(queues.classes(), queues.defaultClass(), users);
  }

  /** Validation, submission and resubmission, for users and for schedules. */
  private static JobSubmission submission(
      ServerConfig config,
      Storage storage,
      Staging staging,
      Planning planning,
      MetaScheduler<JsdlJobPlan> scheduler,
      JobFlow flow,
      VisibleJobs visible) {
    return new JobSubmission(
        planning.parser(),
        planning.planner(),
        storage.store(),
        scheduler,
        serverInfo(config, staging.passwordKey()),
        storage.watch(),
        flow,
        visible,
        queueClasses(config),
        new SubmissionQuotas(config.quotas(), storage.store().accounting(), Clock.systemUTC()));
  }

  /** Job files are read here, or over SFTP when the job directories are on a cluster. */
  private static JobFileReader jobFileReader(ComputeBackend backend) {
    return backend
        .directories()
        .cluster()
        .map(c -> JobFileReader.withCluster(c, backend.directories().root()))
        .orElse(JobFileReader.LOCAL);
  }

  /**
   * Worker sessions (issue 15): launchers started as a farm's are, in the user's sandbox and
   * account, but never under gantry-stepd: a session lives in this server's memory only.
   */
  private WorkerSessions startWorkerSessions(
      ServerConfig config, Compute compute, Planning planning) {
    return own(
        new WorkerSessions(
            config.workerSessions(),
            config.taskFarms(),
            new WorkerSessionLaunch(
                config.stagingRoot(),
                farmLauncher(config),
                compute.backend(),
                compute.accounts(),
                compute.sandbox(),
                planning.applications()),
            config.killGracePeriod(),
            Clock.systemUTC()));
  }

  /** The SOAP endpoint and the web faces, behind TLS and authentication when configured. */
  private void startHttp(
      ServerConfig config,
      ListeningSocket listening,
      Storage storage,
      Staging staging,
      JobManagementService service,
      Optional<UserAuthenticator> authenticator)
      throws Exception {
    ServerConfig.Security security = config.security();
    Optional<TlsKeystore> keystore =
        security.tlsEnabled() ? Optional.of(tlsKeystore(config)) : Optional.empty();
    ServerCredentials credentials = staging.credentials();
    WebFaceContext web =
        new WebFaceContext(
            service,
            authenticator,
            config.dataDirectory().resolve("web"),
            security.webSessionIdleTimeout(),
            keystore.isPresent(),
            user ->
                new WebFaceContext.CredentialNames(
                    credentials.dataSourceNamesFor(user), credentials.identityNamesFor(user)));
    http =
        own(
            new GantryHttpServer(
                config.listenHost(),
                config.listenPort(),
                keystore,
                authenticator,
                config.maxConcurrentRequestsPerUser(),
                List.of(new SoapEndpoint(JobManagement.class, service, "/JobManagement")),
                withStorageOutageFilter(storage.watch(), webFaces(web)),
                requestLimits(config),
                connectionLimits(config.connections())));
    // closed before the HTTP server: a request still waiting for a job answers at once
    own(jobWaits);
    http.start(listening);
    tlsFingerprint = keystore.map(TlsKeystore::fingerprint);
  }

  /**
   * The reader of the morning risk view's results data sources ({@code risk.results-data-sources};
   * the demo's data source when unset and the demo is on): a name that is no data source stops the
   * start. Its faces: {@code getVarSummary}/{@code getVarHistory} over SOAP and {@code gantry var}
   * (docs/risk-view.md).
   */
  private static RiskResults riskResults(
      ServerConfig config, Map<String, NamedDataSource> dataSources) {
    List<String> names =
        config.resultsDataSources() != null
            ? config.resultsDataSources()
            : config.demoEnabled() ? List.of(DemoMarket.DATA_SOURCE_NAME) : List.of();
    try {
      RiskResults reader = new RiskResults(dataSources, names);
      log.info("the risk view reads VaR results from data sources {}", names);
      return reader;
    } catch (IllegalArgumentException e) {
      throw new ConfigException("risk.results-data-sources", e.getMessage());
    }
  }

  /** Schedules read the system clock, or a test's clock file. */
  private static Clock scheduleClock(ServerConfig config) {
    ServerConfig.Schedules settings = config.schedules();
    if (settings.testClockFile() == null) {
      return Clock.systemUTC();
    }
    log.warn(
        "schedules read the time from {} (schedules.test-clock-file): for tests only",
        settings.testClockFile());
    return FileClock.of(settings.testClockFile());
  }

  /** The schedules' runner, started, and the book that answers their operations. */
  private ScheduleBook startSchedules(
      ServerConfig config, JdbcJobStore store, JobSubmission submission) {
    Clock clock = scheduleClock(config);
    HolidayCalendars calendars =
        new HolidayCalendars(config.schedules().calendars(), config.dataSources());
    startScheduleRunner(config, store, submission, clock, calendars);
    return new ScheduleBook(store.schedules(), submission, clock, calendars);
  }

  /** Schedules submit jobs as their owners; a removed user's submit nothing. */
  private void startScheduleRunner(
      ServerConfig config,
      JdbcJobStore store,
      JobSubmission submission,
      Clock clock,
      HolidayCalendars calendars) {
    boolean accounts = config.security().authEnabled();
    ScheduleRunner runner =
        own(
            new ScheduleRunner(
                store.schedules(),
                submission,
                clock,
                config.schedules().checkInterval(),
                owner -> !accounts || store.userAccounts().find(owner).isPresent(),
                calendars));
    runner.start();
  }

  /** The storage outage filter goes before every other, so that nothing reaches a failing store. */
  private static List<GantryHttpServer.ContextExtension> withStorageOutageFilter(
      StorageWatch storage, List<GantryHttpServer.ContextExtension> faces) {
    List<GantryHttpServer.ContextExtension> all = new ArrayList<>(faces);
    all.add(
        context -> {
          FilterHolder holder = new FilterHolder(new StorageOutageFilter(storage));
          holder.setName("storage-outage");
          FilterMapping mapping = new FilterMapping();
          mapping.setFilterName("storage-outage");
          mapping.setPathSpec("/*");
          mapping.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
          context.getServletHandler().addFilter(holder);
          context.getServletHandler().prependFilterMapping(mapping);
        });
    return all;
  }

  /** The data directory, job directories' root and H2 job store directory, kept owner-only. */
  public static PrivateDataDirectory privateDataDirectory(ServerConfig config) {
    return new PrivateDataDirectory(
        config.dataDirectory(),
        config.stagingRoot(),
        h2StoreBase(config).map(Path::getParent).orElse(null));
  }

  /** The base path of the H2 job store's files, when the job store is an H2 file. */
  private static Optional<Path> h2StoreBase(ServerConfig config) {
    String url = config.jobStoreUrl();
    if (url.startsWith("jdbc:h2:file:")) {
      String path = url.substring("jdbc:h2:file:".length());
      int options = path.indexOf(';');
      return Optional.of(Path.of(options < 0 ? path : path.substring(0, options)).toAbsolutePath());
    }
    return Optional.empty();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * Refuses to start unless jobs can run confined under accounts that are not the server's: the
   * server runs as root (it switches accounts and builds sandboxes), the default account exists and
   * is neither root nor the server's, no user is mapped to the server's account, and a test sandbox
   * starts. A user mapped to an account that is gone only gets a warning: their jobs are refused
   * with that reason, everyone else's run.
   */
  private static void checkJobAccounts(
      ServerConfig config, JdbcJobStore store, SandboxConfig sandbox) throws LaunchException {
    int serverUid = OsAccounts.serverUid();
    if (serverUid != 0) {
      throw new IllegalStateException(
          "gantry-server runs as uid "
              + serverUid
              + ", but it starts every job"
              + " under its user's own OS account inside a bubblewrap sandbox, which needs root; run it as root"
              + " (see docs/security.md)");
    }
    JobAccount fallback;
    try {
      fallback =
          JobAccounts.check(OsAccounts.lookup(config.sandbox().defaultOsAccount()), serverUid);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("jobs.default-os-account: " + e.getMessage());
    }
    for (Map.Entry<String, String> mapped : store.userAccounts().osAccounts().entrySet()) {
      try {
        JobAccounts.check(OsAccounts.lookup(mapped.getValue()), serverUid);
      } catch (IllegalArgumentException e) {
        log.warn("user {}: jobs will be refused: {}", mapped.getKey(), e.getMessage());
      }
    }
    SandboxProbe.verify(sandbox, fallback);
  }

  /**
   * What staging may reach: the operator's settings, the hosts of the configured data sources, and
   * the demo's SSH host on loopback while the demo runs.
   */
  private ConnectionPolicy connectionPolicy(
      ServerConfig config, Map<String, NamedDataSource> dataSources) {
    List<String> hosts = new ArrayList<>(config.staging().allowedHosts());
    if (demoHost != null) {
      hosts.add("127.0.0.1:" + demoHost.port());
    } else if (config.demoEnabled() && config.demoSshPort() != 0) {
      // the demo host did not start (port taken): its jobs then fail to connect, not to validate
      hosts.add("127.0.0.1:" + config.demoSshPort());
    }
    List<String> configuredUrls =
        dataSources.values().stream().map(NamedDataSource::jdbcUrl).toList();
    return ConnectionPolicy.of(
        config.staging().inlineDataSources(),
        config.staging().allowedJdbcUrls(),
        hosts,
        configuredUrls);
  }

  /** The web faces on the class path (the web application when it is installed), ready to add. */
  private static List<GantryHttpServer.ContextExtension> webFaces(WebFaceContext web) {
    List<GantryHttpServer.ContextExtension> faces = new ArrayList<>();
    for (WebFace face : ServiceLoader.load(WebFace.class)) {
      log.info("web face {}", face.getClass().getName());
      faces.add(context -> face.install(context, web));
    }
    return faces;
  }

  /** The configured keystore, or the one generated into the data directory on first start. */
  private static TlsKeystore tlsKeystore(ServerConfig config)
      throws IOException, GeneralSecurityException {
    ServerConfig.Security security = config.security();
    if (security.tlsKeystore() != null) {
      return TlsKeystore.configured(security.tlsKeystore(), security.tlsKeystorePassword().read());
    }
    return TlsKeystore.loadOrGenerate(config.dataDirectory().resolve("tls"));
  }

  /** SHA-256 fingerprint of the TLS certificate clients are to trust; empty without TLS. */
  public Optional<String> tlsFingerprint() {
    return tlsFingerprint;
  }

  /**
   * The demo's SSH host. A port already taken (another server on this machine) costs only the
   * demo's scp step, which then fails with "connection refused": not a reason to refuse to start.
   */
  private Optional<DemoRemoteHost> startDemoRemoteHost(ServerConfig config) {
    try {
      DemoRemoteHost host =
          own(
              DemoRemoteHost.start(
                  config.dataDirectory().resolve("demo"),
                  config.demoSshPort(),
                  config.totalSlots(),
                  config.knownHostsFile()));
      log.info("demo remote host (scp, sftp) on 127.0.0.1:{}", host.port());
      demoHost = host;
      return Optional.of(host);
    } catch (IOException | GeneralSecurityException e) {
      log.warn(
          "demo remote host not started on 127.0.0.1:{}: {}", config.demoSshPort(), e.toString());
      return Optional.empty();
    }
  }

  static JobStoreSettings storeSettings(ServerConfig config) {
    if (config.jobStoreUrl().startsWith("jdbc:h2:file:") && !config.jobStoreUrl().contains(";")) {
      return JobStoreSettings.h2File(
              Path.of(config.jobStoreUrl().substring("jdbc:h2:file:".length())))
          .withConnectionTimeout(config.jobStoreConnectionTimeout());
    }
    char[] password = config.jobStorePassword().read();
    return new JobStoreSettings(
        config.jobStoreUrl(),
        config.jobStoreUser(),
        new String(password),
        8,
        config.jobStoreConnectionTimeout());
  }

  private static GantryHttpServer.RequestLimits requestLimits(ServerConfig config) {
    ServerConfig.Admission admission = config.admission();
    return new GantryHttpServer.RequestLimits(
        config.maxJobDefinitionBytes() + admission.soapEnvelopeMarginBytes(),
        admission.unauthenticatedBodyBytes(),
        new RefusedRequest.Drain(admission.drainBytes(), admission.drainTime()));
  }

  private static GantryHttpServer.ConnectionLimits connectionLimits(ServerConfig.Connections c) {
    return new GantryHttpServer.ConnectionLimits(
        c.maxConnections(),
        c.maxConnectionsPerAddress(),
        c.idleTimeout(),
        c.busyIdleTimeout(),
        c.requestHeadTimeout(),
        c.minRequestDataRate(),
        c.threadsPerAddress());
  }

  private static ServerInfo serverInfo(ServerConfig config, PasswordKeyPair passwordKey) {
    ServerInfo info = new ServerInfo();
    info.version = VERSION;
    info.apiNamespace = JobManagement.NAMESPACE;
    info.maxJobDefinitionBytes = config.maxJobDefinitionBytes();
    info.maxQueuedJobsPerUser = config.maxQueuedJobsPerUser();
    info.totalSlots = config.totalSlots();
    info.passwordPublicKey = passwordKey.publicKeyPem();
    info.passwordKeyFingerprint = passwordKey.fingerprint();
    return info;
  }

  private <T extends AutoCloseable> T own(T resource) {
    resources.push(resource);
    return resource;
  }

  /** The address the SOAP and web endpoints listen on. */
  public InetSocketAddress address() {
    return http.address();
  }

  /** The port of the demo's SSH host, when it runs. */
  public java.util.OptionalInt demoSshPort() {
    return demoHost == null
        ? java.util.OptionalInt.empty()
        : java.util.OptionalInt.of(demoHost.port());
  }

  /** The job-management endpoint's URL. */
  public String jobManagementUrl() {
    InetSocketAddress a = address();
    return http.scheme()
        + "://"
        + a.getHostString()
        + ":"
        + a.getPort()
        + "/services/JobManagement";
  }

  @Override
  public void close() {
    while (!resources.isEmpty()) {
      AutoCloseable r = resources.pop();
      try {
        r.close();
      } catch (Exception e) {
        log.warn("while stopping {}: {}", r.getClass().getSimpleName(), e.toString());
      }
    }
  }

  /** farm.launcher, or gantry-launcher where the built-in mcvar is looked for; null: none. */
  private static java.nio.file.Path farmLauncher(ServerConfig config) {
    return config.taskFarms().launcher() != null
        ? config.taskFarms().launcher()
        : ApplicationRegistry.onPath("gantry-launcher", jobPath(config)).orElse(null);
  }

  /**
   * Where the built-in mcvar is looked for: the job's own PATH, that is the allowed executable
   * roots (what the sandbox shows, e.g. node-programs/build with bin/gantry-server), then the
   * server's PATH.
   */
  private static String jobPath(ServerConfig config) {
    java.util.List<String> dirs = new java.util.ArrayList<>();
    config.sandbox().allowedExecutableRoots().forEach(r -> dirs.add(r.toString()));
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.add(path);
    }
    return String.join(java.io.File.pathSeparator, dirs);
  }
}
