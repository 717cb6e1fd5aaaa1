package io.gantry.server.internal.plan;

import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.slurm.BatchResources;
import io.gantry.jsdl.JsdlDefaults;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.SecretBinding;
import io.gantry.jsdl.model.ext.DataSourceType;
import io.gantry.jsdl.model.ext.EnvironmentType;
import io.gantry.jsdl.model.ext.MpirunApplicationType;
import io.gantry.jsdl.model.ext.SCPDataStagingType;
import io.gantry.jsdl.model.ext.SQLQueryDataStagingType;
import io.gantry.jsdl.model.ext.SQLUpdateDataStagingType;
import io.gantry.jsdl.model.hpcpa.HPCProfileApplicationType;
import io.gantry.jsdl.model.posix.POSIXApplicationType;
import io.gantry.jsdl.model.spmd.SPMDApplicationType;
import io.gantry.server.config.NamedApplication;
import io.gantry.server.internal.accounts.JobAccounts;
import io.gantry.server.internal.compute.ComputePolicy;
import io.gantry.server.internal.credentials.OwnedSecret;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.server.internal.taskfarm.TaskFarmLaunch;
import io.gantry.staging.BoundValues;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.SqlLoad;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a valid JSDL job into a {@link JsdlJobPlan}. The parser already checked what the document
 * alone can tell; this checks what only the server knows (its data sources and identities, who may
 * use them) and fixes the job directory, output files and wall time.
 */
public final class JobPlanner {
  /** Every job's program sees its own id, e.g. so mcvar can label its results. */
  public static final String JOB_ID_VARIABLE = "GANTRY_JOB_ID";

  private final Path stagingRoot;
  private final Duration defaultWallTime;
  private final DataSourceAccess dataSources;
  private final ComputePolicy compute;
  private final JobAccounts accounts;
  private final io.gantry.dispatcher.SandboxConfig sandbox;

  /**
   * Standard DataStaging's rules; without a call to {@link #withUriStaging}: no file: roots, any
   * host.
   */
  private StandardStagingPlanner standardStaging;

  /** Named applications and file systems; without a call to {@link #withStandardJsdl}: none. */
  private ApplicationRegistry applications = ApplicationRegistry.empty();

  private io.gantry.staging.ConnectionCheck connectionCheck;

  /** Whether a job's OS account reaches where jobs run; by default, always. */
  private java.util.function.Function<String, java.util.Optional<String>> accountReach =
      account -> java.util.Optional.empty();

  private FileSystemRoots fileSystems = FileSystemRoots.none();

  /** gantry-launcher for task farms; null: this server refuses them. */
  private Path farmLauncher;

  /** Which named data sources and SSH identities exist and who may use them. */
  public interface DataSourceAccess {
    /** A problem with {@code owner} using data source {@code name}, or null if allowed. */
    String dataSourceProblem(String name, String owner);

    /** The data sources {@code owner} may use, for suggesting a name; none unless known. */
    default java.util.SortedSet<String> dataSourceNamesFor(String owner) {
      return java.util.Collections.emptySortedSet();
    }

    /** A problem with {@code owner} using SSH identity {@code name}, or null if allowed. */
    String identityProblem(String name, String owner);

    /**
     * Why an encrypted password value would not decrypt on this server for {@code use} (the job's
     * owner and the destination the job sends it to), or null if it would.
     */
    String encryptedSecretProblem(String value, SecretBinding use);
  }

  public JobPlanner(
      Path stagingRoot,
      Duration defaultWallTime,
      DataSourceAccess dataSources,
      JobAccounts accounts,
      io.gantry.dispatcher.SandboxConfig sandbox) {
    this(stagingRoot, defaultWallTime, dataSources, accounts, sandbox, ComputePolicy.local());
  }

  public JobPlanner(
      Path stagingRoot,
      Duration defaultWallTime,
      DataSourceAccess dataSources,
      JobAccounts accounts,
      io.gantry.dispatcher.SandboxConfig sandbox,
      ComputePolicy compute) {
    this.compute = compute;
    this.stagingRoot = stagingRoot;
    this.defaultWallTime = defaultWallTime;
    this.dataSources = dataSources;
    this.accounts = accounts;
    this.sandbox = sandbox;
    this.standardStaging =
        new StandardStagingPlanner(io.gantry.staging.UriStagingPolicy.networkOnly(), dataSources);
  }

  /**
   * Checks standard DataStaging against {@code policy} (file roots, hosts) at validation; returns
   * this.
   */
  public JobPlanner withUriStaging(io.gantry.staging.UriStagingPolicy policy) {
    this.standardStaging = new StandardStagingPlanner(policy, dataSources);
    return this;
  }

  /**
   * Resolves ApplicationName against {@code applications} and file system names against {@code
   * fileSystems}; returns this.
   */
  public JobPlanner withStandardJsdl(
      ApplicationRegistry applications, FileSystemRoots fileSystems) {
    this.applications = applications;
    this.fileSystems = fileSystems;
    return this;
  }

  /**
   * Checks, when a job is submitted or validated, that each database its SQL staging names accepts
   * its credential ({@link #connectionProblems}); returns this.
   */
  public JobPlanner withConnectionCheck(io.gantry.staging.ConnectionCheck check) {
    this.connectionCheck = check;
    return this;
  }

  /**
   * Asks {@code reach} at submit whether the job's OS account reaches where jobs run (the backend's
   * {@code accountReachProblem}); returns this.
   */
  public JobPlanner withAccountReach(
      java.util.function.Function<String, java.util.Optional<String>> reach) {
    this.accountReach = reach;
    return this;
  }

  /**
   * Checks before the computation: one problem per data source of the plan that cannot be reached
   * or refuses the job's credential, naming the stage and the data source; none without a check.
   */
  public List<String> connectionProblems(JsdlJobPlan plan) {
    return connectionCheck == null
        ? List.of()
        : connectionCheck.problems(plan.stageIn(), plan.stageOut());
  }

  /**
   * The directories behind JSDL file system names, for staging a FileName with a FilesystemName.
   */
  public FileSystemRoots fileSystems() {
    return fileSystems;
  }

  /**
   * Runs task farms with {@code launcher} (gantry-launcher), or refuses them when it is null;
   * returns this.
   */
  public JobPlanner withTaskFarms(Path launcher) {
    this.farmLauncher = launcher;
    return this;
  }

  /** Which data sources exist and who may use them, as this planner checks them. */
  public DataSourceAccess dataSources() {
    return dataSources;
  }

  /** The named applications this planner resolves ApplicationName against. */
  public ApplicationRegistry applications() {
    return applications;
  }

  /**
   * Refuses, before queueing, what would only fail at launch: an owner whose OS account cannot run
   * jobs or cannot log in where they run, an executable the job's sandbox does not show.
   */
  public void checkLaunchable(JsdlJobPlan plan) throws JobFailure {
    io.gantry.dispatcher.JobAccount account = accounts.accountOf(plan.owner());
    // staging too runs as the account where jobs run (a cluster's SFTP as that account)
    java.util.Optional<String> problem = accountReach.apply(account.name());
    if (problem.isPresent()) {
      throw new JobFailure(problem.get());
    }
    if (!plan.runsProgram()) {
      return; // staging only: nothing is launched
    }
    problem = sandbox.executableProblem(plan.launch().executable());
    if (problem.isPresent()) {
      throw new JobFailure(problem.get());
    }
    if (startsOnNodes()) {
      problem = JobDirectoryReach.problem(stagingRoot, account, plan.launch().executable());
      if (problem.isPresent()) {
        throw new JobFailure(problem.get());
      }
    }
  }

  /**
   * Whether jobs start on nodes under their account, outside the server's sandbox, with the job
   * directories on a file system this host shares (on a cluster over SSH they are not here).
   */
  private boolean startsOnNodes() {
    return compute.startsOnSharedNodes();
  }

  /**
   * The OS account {@code owner}'s jobs run under, looked up now. Not part of {@link #plan}: plans
   * are also made to find a finished job's files, which must not depend on the account.
   */
  public io.gantry.dispatcher.JobAccount accountOf(String owner) throws JobFailure {
    return accounts.accountOf(owner);
  }

  public JsdlJobPlan plan(JobId id, String owner, JsdlJob job) throws JobFailure {
    List<String> problems = new ArrayList<>();
    JsdlJobPlan plan = draft(id, owner, job, problems);
    if (!problems.isEmpty()) {
      throw new JobFailure(String.join("; ", problems));
    }
    return plan;
  }

  /**
   * Where the files of a job stored before plans were kept with jobs are, planned as if today's
   * configuration had no objection to it: a data source removed since, or a user's access to it
   * withdrawn, does not move an old job's directory or output. Never used to run a job.
   */
  public JsdlJobPlan filesOf(JobId id, String owner, JsdlJob job) {
    return draft(id, owner, job, new ArrayList<>());
  }

  /**
   * The standard staging plan with its files outside the job directory (file systems, {@code file:}
   * roots) handled as the owner's OS account, looked up now. When the account cannot be looked up
   * that is a problem of the plan: it never runs with the server's rights instead.
   */
  private StandardStagingPlanner.Plan asJobAccount(
      String owner, StandardStagingPlanner.Plan plan, List<String> problems) {
    if (!plan.actsOutsideTheJobDirectory()) {
      return plan;
    }
    try {
      io.gantry.dispatcher.JobAccount a = accounts.accountOf(owner);
      return plan.as(new io.gantry.staging.FileAccount(a.name(), a.uid(), a.gid(), a.groups()));
    } catch (JobFailure e) {
      problems.add(
          "staging outside the job directory is done as the job's OS account: " + e.getMessage());
      return plan;
    }
  }

  /**
   * The job's directory: {@code ROOT/JOB}, or {@code ROOT/ACCOUNT/JOB} where the backend keeps each
   * account's jobs in a directory of that account's (a cluster whose jobs log in as their own
   * accounts). The account is the owner's at planning time; the stored plan keeps the path.
   */
  private Path jobDirectory(JobId id, String owner, List<String> problems) {
    if (!compute.accountDirectories()) {
      return stagingRoot.resolve(id.toString());
    }
    try {
      return stagingRoot.resolve(accounts.accountOf(owner).name()).resolve(id.toString());
    } catch (JobFailure e) {
      problems.add("the job runs on the cluster as its owner's account: " + e.getMessage());
      return stagingRoot.resolve(id.toString());
    }
  }

  /** The plan, with what stands in its way added to {@code problems}. */
  private JsdlJobPlan draft(JobId id, String owner, JsdlJob job, List<String> problems) {
    Path dir = jobDirectory(id, owner, problems);
    StandardStagingPlanner.Plan standard =
        asJobAccount(
            owner,
            standardStaging.plan(owner, job.stagingSteps(), fileSystems, problems),
            problems);
    StageInPlan in =
        new StageInPlan(
            transfers(job.scpStageIn(), owner, problems),
            extracts(job, job.sqlQueries(), owner, problems),
            standard.in());
    StageOutPlan out =
        new StageOutPlan(
            id.toString(),
            loads(job, job.sqlUpdates(), owner, problems),
            transfers(job.scpStageOut(), owner, problems),
            standard.out(),
            standard.deleteOnTermination());
    LaunchSpec launch = launch(id, owner, job, dir, problems);
    Set<String> named = fileSystemProblems(job, problems);
    if (launch != null) {
      launch =
          new JobFileSystems(fileSystems, compute.sandboxed())
              .mounted(launch, named, job, problems);
    }
    BatchResources batch =
        compute.batchResources()
            ? compute.resources(
                job,
                owner,
                job.mpirunApplication().map(MpirunApplicationType::getPartition).orElse(null),
                processesPerHost(job),
                problems)
            : BatchResources.none();
    return new JsdlJobPlan(
        id,
        owner,
        dir,
        in,
        launch,
        out,
        batch,
        job.taskFarm().orElse(null),
        job.queueClass().orElse(null),
        StreamedInput.of(job.stagingSteps(), standard.in()));
  }

  /** JSDL SPMD's ProcessesPerHost, the one JSDL element that says how ranks spread over hosts. */
  private static Integer processesPerHost(JsdlJob job) {
    return job.spmdApplication()
        .map(SPMDApplicationType::getProcessesPerHost)
        .map(p -> p.getValue().intValueExact())
        .orElse(null);
  }

  private List<SqlExtract> extracts(
      JsdlJob job, List<SQLQueryDataStagingType> queries, String owner, List<String> problems) {
    List<SqlExtract> extracts = new ArrayList<>();
    for (SQLQueryDataStagingType q : queries) {
      DataSourceRef source = dataSource(q.getDataSourceRef(), q.getDataSource(), owner, problems);
      CreationFlag flag =
          CreationFlag.fromJsdl(
              JsdlDefaults.creationFlag(q.getSQLOutputFileCreationFlag()).value());
      extracts.add(
          new SqlExtract(
              source,
              q.getExecutionOrderGroup(),
              q.getSQLStatement().strip(),
              q.getSQLOutputFileName(),
              q.getSQLInputFileName(),
              flag,
              JsdlDefaults.isOn(q.getSQLOutputFileCompression()),
              CacheRules.of(q.getCacheValidity(), q.getCacheKeyQuery()),
              new BoundValues(job.boundValues(q))));
    }
    return extracts;
  }

  private List<SqlLoad> loads(
      JsdlJob job, List<SQLUpdateDataStagingType> updates, String owner, List<String> problems) {
    List<SqlLoad> loads = new ArrayList<>();
    for (SQLUpdateDataStagingType u : updates) {
      DataSourceRef source = dataSource(u.getDataSourceRef(), u.getDataSource(), owner, problems);
      loads.add(
          new SqlLoad(
              source,
              u.getExecutionOrderGroup(),
              u.getSQLStatement().strip(),
              u.getSQLInputFileName(),
              u.getBatchSize() == null ? SqlLoad.DEFAULT_BATCH_SIZE : u.getBatchSize(),
              new BoundValues(job.boundValues(u))));
    }
    return loads;
  }

  private DataSourceRef dataSource(
      String name, DataSourceType inline, String owner, List<String> problems) {
    if (name != null) {
      String problem = dataSources.dataSourceProblem(name, owner);
      if (problem != null) {
        problems.add(problem);
      }
      return DataSourceRef.named(name);
    }
    if (inline.getPassword() == null) {
      return DataSourceRef.inline(inline.getJDBCURL(), inline.getUserId(), null);
    }
    String problem =
        secretProblem(inline.getPassword(), () -> SecretBinding.jdbc(owner, inline.getJDBCURL()));
    if (problem != null) {
      problems.add(
          "the password of data source "
              + DataSourceSpec.redactUrl(inline.getJDBCURL())
              + " "
              + problem);
    }
    return DataSourceRef.inline(
        inline.getJDBCURL(), inline.getUserId(), OwnedSecret.token(owner, inline.getPassword()));
  }

  /**
   * Checked here, at validation, so that a value meant for someone or somewhere else never reaches
   * staging.
   */
  private String secretProblem(String value, java.util.function.Supplier<SecretBinding> use) {
    try {
      return dataSources.encryptedSecretProblem(value, use.get());
    } catch (IllegalArgumentException e) {
      return "cannot be bound: " + e.getMessage();
    }
  }

  private List<RemoteTransfer> transfers(
      List<SCPDataStagingType> steps, String owner, List<String> problems) {
    List<RemoteTransfer> transfers = new ArrayList<>();
    for (SCPDataStagingType s : steps) {
      String credential =
          s.getIdentityRef() != null
              ? s.getIdentityRef()
              : OwnedSecret.token(owner, s.getRemotePassword());
      String problem =
          s.getIdentityRef() != null
              ? dataSources.identityProblem(s.getIdentityRef(), owner)
              : secretProblem(
                  s.getRemotePassword(),
                  () ->
                      SecretBinding.ssh(
                          owner, s.getRemoteUserId(), s.getRemoteHostName(), JsdlDefaults.port(s)));
      if (problem != null) {
        problems.add(
            s.getIdentityRef() != null
                ? problem
                : "the RemotePassword for "
                    + s.getRemoteUserId()
                    + "@"
                    + s.getRemoteHostName()
                    + " "
                    + problem);
      }
      transfers.add(
          new RemoteTransfer(
              s.getArrangingOrder(),
              RemoteTransfer.Direction.fromJsdl(s.getDirection().value()),
              RemoteTransfer.Protocol.valueOf(
                  JsdlDefaults.protocol(s).value().toUpperCase(Locale.ROOT)),
              s.getRemoteHostName(),
              JsdlDefaults.port(s),
              s.getRemoteUserId(),
              s.getSourceFileName(),
              s.getTargetFileName(),
              JsdlDefaults.isOn(s.getCompression()),
              credential,
              CacheRules.of(s.getCacheValidity(), null)));
    }
    return transfers;
  }

  /**
   * Every file system the job names (Resources/FileSystem, DataStaging/FilesystemName) must be one
   * the operator configured: the server cannot provide any other, so it refuses at once. Returns
   * the names.
   */
  private Set<String> fileSystemProblems(JsdlJob job, List<String> problems) {
    Set<String> named = new TreeSet<>();
    if (job.description().getResources() != null) {
      job.description().getResources().getFileSystem().forEach(f -> named.add(f.getName().strip()));
    }
    job.stagingSteps().forEach(step -> step.fileSystemName().ifPresent(named::add));
    if (compute.remoteJobDirectories() && !named.isEmpty()) {
      problems.add(
          "JSDL file systems "
              + named
              + " are directories of the server's host, and this server runs its jobs on the"
              + " cluster of compute.ssh-host, where they do not exist: stage through the job"
              + " directory instead");
      return named;
    }
    for (String name : named) {
      fileSystems.problem(name).ifPresent(problems::add);
    }
    return named;
  }

  /** What the job runs; null for a job without Application, which only stages data. */
  private LaunchSpec launch(JobId id, String owner, JsdlJob job, Path dir, List<String> problems) {
    if (job.stagingOnly()) {
      return null;
    }
    if (job.mpirunApplication().isPresent()) {
      ProcessCount.check(
          job,
          job.mpirunApplication().get().getNumberOfProcesses(),
          "NumberOfProcesses gives",
          problems);
      return mpirun(id, job.mpirunApplication().get(), dir, problems);
    }
    if (job.spmdApplication().isPresent()) {
      return spmd(id, job.spmdApplication().get(), dir, job, problems);
    }
    if (job.hpcProfileApplication().isPresent()) {
      ProcessCount.check(job, 1, "an HPC Profile application runs", problems);
      return hpcProfile(id, job.hpcProfileApplication().get(), dir);
    }
    if (job.taskFarm().isPresent() && compute.remoteJobDirectories()) {
      problems.add(
          "task farms run on the server's own host (their dispatcher and journal live there), and"
              + " this server runs its jobs on the cluster of compute.ssh-host: submit the farm to"
              + " a server without compute.ssh-host");
      return null;
    }
    if (job.taskFarm().isPresent()) {
      return TaskFarmLaunch.spec(
          posix(id, job.posixApplication().orElseThrow(), dir), job, farmLauncher, problems);
    }
    if (job.posixApplication().isPresent()) {
      ProcessCount.check(job, 1, "a POSIX application runs", problems);
      return posix(id, job.posixApplication().get(), dir);
    }
    try {
      String name =
          job.namedApplication().orElseThrow(() -> new JobFailure("the job names no application"));
      return named(
          id, applications.resolve(name, job.applicationVersion(), owner), job, dir, problems);
    } catch (JobFailure e) {
      problems.add(e.getMessage());
      return null;
    }
  }

  /**
   * A named application: the operator's program and arguments; the job may only pick the process
   * count.
   */
  private LaunchSpec named(
      JobId id, NamedApplication app, JsdlJob job, Path dir, List<String> problems) {
    boolean mpi = app.kind() == NamedApplication.Kind.MPIRUN;
    int processes = 1;
    if (mpi) {
      processes = ProcessCount.chosen(job, app.processes(), "application " + app.label(), problems);
    } else {
      ProcessCount.check(job, 1, "application " + app.label() + " (kind posix) runs", problems);
    }
    LaunchSpec.Builder spec =
        LaunchSpec.builder(
                id.toString(), mpi ? ProgramKind.MPI : ProgramKind.POSIX, app.executable())
            .arguments(app.arguments().toArray(String[]::new))
            .workingDirectory(dir)
            .output(dir.resolve(JsdlDefaults.STDOUT_FILE), dir.resolve(JsdlDefaults.STDERR_FILE))
            .wallTimeLimit(defaultWallTime);
    if (mpi) {
      spec.processes(processes);
    }
    spec.environment(JOB_ID_VARIABLE, id.toString());
    return spec.build();
  }

  /** GFD.111's HPCProfileApplication is POSIXApplication without limits: run the same way. */
  private LaunchSpec hpcProfile(JobId id, HPCProfileApplicationType app, Path dir) {
    LaunchSpec.Builder spec =
        LaunchSpec.builder(id.toString(), ProgramKind.POSIX, app.getExecutable().getValue().strip())
            .arguments(
                app.getArgument().stream().map(a -> a.getValue().strip()).toArray(String[]::new))
            .workingDirectory(
                inside(
                    dir,
                    app.getWorkingDirectory() == null
                        ? null
                        : app.getWorkingDirectory().getValue()))
            .output(
                stream(dir, app.getOutput(), JsdlDefaults.STDOUT_FILE),
                stream(dir, app.getError(), JsdlDefaults.STDERR_FILE))
            .wallTimeLimit(defaultWallTime);
    app.getEnvironment().forEach(e -> spec.environment(e.getName(), e.getValue()));
    spec.environment(JOB_ID_VARIABLE, id.toString());
    return spec.build();
  }

  private LaunchSpec mpirun(JobId id, MpirunApplicationType app, Path dir, List<String> problems) {
    if (app.getPartition() != null && !compute.batchResources()) {
      problems.add(
          "Partition names a Slurm partition, and this server's compute backend is "
              + compute.backend()
              + "; with Open MPI give a HostFile instead");
    }
    LaunchSpec.Builder spec =
        LaunchSpec.builder(id.toString(), ProgramKind.MPI, app.getExecutable())
            .arguments(app.getArgument().toArray(String[]::new))
            .workingDirectory(inside(dir, app.getWorkingDirectory()))
            .jobDirectory(dir)
            .processes(app.getNumberOfProcesses())
            .output(
                inside(dir, orDefault(app.getStdoutFileName(), JsdlDefaults.STDOUT_FILE)),
                inside(dir, orDefault(app.getStderrFileName(), JsdlDefaults.STDERR_FILE)))
            .wallTimeLimit(
                app.getWallTimeLimit() == null
                    ? defaultWallTime
                    : Duration.ofSeconds(app.getWallTimeLimit()));
    List<String> options = new ArrayList<>(app.getMpirunOption());
    if (app.getVerbosity() != null && app.getVerbosity() > 0) {
      options.add("--verbose");
    }
    spec.extraMpirunOptions(options.toArray(String[]::new));
    if (app.getHostFile() != null && compute.jobHostFiles()) {
      spec.hostFile(inside(dir, app.getHostFile()));
    }
    for (EnvironmentType e : app.getEnvironment()) {
      spec.environment(e.getName(), e.getValue());
    }
    spec.environment(JOB_ID_VARIABLE, id.toString());
    return spec.build();
  }

  /** GFD.115: without NumberOfProcesses, the count comes from Resources/TotalCPUCount (else 1). */
  private LaunchSpec spmd(
      JobId id, SPMDApplicationType app, Path dir, JsdlJob job, List<String> problems) {
    int processes;
    if (app.getNumberOfProcesses() == null) {
      processes =
          ProcessCount.chosen(
              job, 1, "the SPMD application (it gives no NumberOfProcesses)", problems);
    } else {
      processes = app.getNumberOfProcesses().getValue().intValueExact();
      ProcessCount.check(job, processes, "NumberOfProcesses gives", problems);
    }
    return posixElements(
            id,
            ProgramKind.MPI,
            dir,
            app.getExecutable(),
            app.getArgument(),
            app.getWorkingDirectory(),
            app.getOutput(),
            app.getError(),
            app.getEnvironment())
        .processes(processes)
        .wallTimeLimit(defaultWallTime)
        .build();
  }

  private LaunchSpec posix(JobId id, POSIXApplicationType app, Path dir) {
    Duration wall =
        app.getWallTimeLimit() == null
            ? defaultWallTime
            : Duration.ofSeconds(app.getWallTimeLimit().getValue().longValueExact());
    return posixElements(
            id,
            ProgramKind.POSIX,
            dir,
            app.getExecutable(),
            app.getArgument(),
            app.getWorkingDirectory(),
            app.getOutput(),
            app.getError(),
            app.getEnvironment())
        .wallTimeLimit(wall)
        .build();
  }

  /**
   * What POSIXApplication (GFD.56) and SPMDApplication (GFD.115, which reuses the POSIX elements)
   * say alike: the executable, arguments, working directory, output and error files in the job
   * directory, and the environment, with the job's id added.
   */
  private static LaunchSpec.Builder posixElements(
      JobId id,
      ProgramKind kind,
      Path dir,
      io.gantry.jsdl.model.posix.FileNameType executable,
      List<io.gantry.jsdl.model.posix.ArgumentType> arguments,
      io.gantry.jsdl.model.posix.DirectoryNameType workingDirectory,
      io.gantry.jsdl.model.posix.FileNameType output,
      io.gantry.jsdl.model.posix.FileNameType error,
      List<io.gantry.jsdl.model.posix.EnvironmentType> environment) {
    LaunchSpec.Builder spec =
        LaunchSpec.builder(id.toString(), kind, executable.getValue().strip())
            .arguments(arguments.stream().map(a -> a.getValue().strip()).toArray(String[]::new))
            .workingDirectory(
                inside(dir, workingDirectory == null ? null : workingDirectory.getValue()))
            .jobDirectory(dir)
            .output(
                stream(dir, output, JsdlDefaults.STDOUT_FILE),
                stream(dir, error, JsdlDefaults.STDERR_FILE));
    environment.forEach(e -> spec.environment(e.getName(), e.getValue()));
    spec.environment(JOB_ID_VARIABLE, id.toString());
    return spec;
  }

  private static String orDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.strip();
  }

  /**
   * A path from the job description, resolved against the job directory. The parser has already
   * refused {@code ..} and absolute paths outside the allowed roots; an absolute path that got here
   * lies under an allowed root.
   */
  /** A POSIX, SPMD or HPC Profile Output/Error file in the job directory, or the default name. */
  private static Path stream(
      Path dir, io.gantry.jsdl.model.posix.FileNameType file, String fallback) {
    return inside(dir, file == null ? fallback : file.getValue().strip());
  }

  /** The same for the HPC Profile's own FileName type. */
  private static Path stream(
      Path dir, io.gantry.jsdl.model.hpcpa.FileNameType file, String fallback) {
    return inside(dir, file == null ? fallback : file.getValue().strip());
  }

  private static Path inside(Path dir, String name) {
    if (name == null || name.isBlank()) {
      return dir;
    }
    return dir.resolve(name.strip()).normalize();
  }
}
