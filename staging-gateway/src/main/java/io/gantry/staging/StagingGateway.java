package io.gantry.staging;

import io.gantry.staging.internal.cache.CacheStore;
import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.sql.DataSourcePools;
import io.gantry.staging.internal.sql.SqlExtractStep;
import io.gantry.staging.internal.sql.SqlLoadStep;
import io.gantry.staging.internal.sql.SqlSteps;
import io.gantry.staging.internal.ssh.RemoteJobDirectory;
import io.gantry.staging.internal.ssh.RemoteTransferStep;
import io.gantry.staging.internal.ssh.SshUriScheme;
import io.gantry.staging.internal.steps.GroupedExecution;
import io.gantry.staging.internal.steps.PlanProgress;
import io.gantry.staging.internal.steps.Step;
import io.gantry.staging.internal.uri.DeleteOnTermination;
import io.gantry.staging.internal.uri.FileScheme;
import io.gantry.staging.internal.uri.FtpScheme;
import io.gantry.staging.internal.uri.HttpScheme;
import io.gantry.staging.internal.uri.JobOutputScheme;
import io.gantry.staging.internal.uri.UriScheme;
import io.gantry.staging.internal.uri.UriTransferStep;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The staging gateway: moves a job's data between SQL databases, remote hosts, URIs (standard JSDL
 * DataStaging) and the job directory on the compute file system. One instance serves many jobs (it
 * owns the connection pools and threads); close it when the server stops.
 *
 * <pre>{@code
 * try (StagingGateway gateway = new StagingGateway(resolver, GatewayOptions.defaults())) {
 *   Manifest in = gateway.stageIn(plan, jobDirectory, listener);
 *   ... run the job ...
 *   Manifest out = gateway.stageOut(outPlan, jobDirectory, listener);
 * }
 * }</pre>
 *
 * Both calls block until done, fail with a {@link StagingException} naming the failed step, and can
 * be cancelled by interrupting the calling thread. Calls for different jobs may run at once.
 */
public final class StagingGateway implements AutoCloseable {
  private final CredentialResolver credentials;
  private final GatewayOptions options;
  private final ConnectionPolicy policy;
  private final DataSourcePools pools;
  private final ExecutorService stepPool;
  private final ExecutorService compressionPool;
  private final UriStagingPolicy uriPolicy;
  private final Map<String, UriScheme> uriSchemes;
  private volatile StageInCache cache;
  private volatile JobOutputs jobOutputs = JobOutputs.NONE;
  private volatile DurableCommit durableCommit = DurableCommit.NONE;

  /**
   * A gateway that connects wherever a plan says ({@link ConnectionPolicy#unrestricted()}; no file:
   * roots).
   */
  public StagingGateway(CredentialResolver credentials, GatewayOptions options) {
    this(credentials, options, ConnectionPolicy.unrestricted());
  }

  /** A gateway that connects only where {@code policy} allows, checked at each connection. */
  public StagingGateway(
      CredentialResolver credentials, GatewayOptions options, ConnectionPolicy policy) {
    this(credentials, options, policy, new UriStagingPolicy(List.of(), null, policy::hostProblem));
  }

  /**
   * A gateway whose standard DataStaging (URIs) follows {@code uriPolicy}, every host every plan
   * names.
   */
  public StagingGateway(
      CredentialResolver credentials, GatewayOptions options, UriStagingPolicy uriPolicy) {
    this(credentials, options, ConnectionPolicy.unrestricted(), uriPolicy);
  }

  /**
   * A gateway under both policies: {@code policy} for SQL and SCP staging, {@code uriPolicy} (whose
   * host rule should be {@code policy::hostProblem}) for standard DataStaging.
   */
  public StagingGateway(
      CredentialResolver credentials,
      GatewayOptions options,
      ConnectionPolicy policy,
      UriStagingPolicy uriPolicy) {
    this.uriPolicy = Objects.requireNonNull(uriPolicy, "uriPolicy");
    HttpScheme http = new HttpScheme(uriPolicy, options.connectTimeout());
    FtpScheme ftp = new FtpScheme(uriPolicy, options.connectTimeout());
    SshUriScheme ssh = new SshUriScheme(options);
    this.uriSchemes =
        Map.of(
            "file",
            new FileScheme(uriPolicy),
            "http",
            http,
            "https",
            http,
            "ftp",
            ftp,
            "ftps",
            ftp,
            "scp",
            ssh,
            "sftp",
            ssh);
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.options = Objects.requireNonNull(options, "options");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.pools = new DataSourcePools(options);
    // Each stage-in or stage-out runs at most stepThreads steps at once (GroupedExecution's
    // window), so the shared pool needs no bound of its own: it grows to the runs in progress.
    this.stepPool = Executors.newCachedThreadPool(daemonThreads("gantry-staging-step"));
    this.compressionPool =
        Executors.newFixedThreadPool(
            options.compressionThreads(), daemonThreads("gantry-staging-deflate"));
  }

  /**
   * Serves extracts whose {@link CacheRule} allows it from {@code stageInCache} (null: no cache,
   * the default). Call once, before the first stage-in.
   */
  public StagingGateway useCache(StageInCache stageInCache) {
    this.cache = stageInCache;
    return this;
  }

  /**
   * Locates earlier jobs' directories for {@code gantry-job:} sources (without it, each such source
   * fails naming its job). Call once, before the first stage-in.
   */
  public StagingGateway useJobOutputs(JobOutputs outputs) {
    this.jobOutputs = Objects.requireNonNull(outputs, "outputs");
    return this;
  }

  /**
   * Runs {@code durable} after each stage-out commit, before the step is reported done (without it,
   * {@link DurableCommit#NONE}: the database's commit is trusted). Call once, before the first
   * stage-out.
   */
  public StagingGateway useDurableCommit(DurableCommit durable) {
    this.durableCommit = Objects.requireNonNull(durable, "durable");
    return this;
  }

  /**
   * Stage-in: remote transfers in ArrangingOrder, then SQL extracts group by group.
   *
   * @param jobDirectory existing directory all plan file names are relative to
   * @return one record per file written
   */
  public Manifest stageIn(StageInPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return stageIn(plan, openJobDirectory(jobDirectory), listener);
  }

  /**
   * Stage-in into a job directory on a cluster's shared file system: every output streams over SFTP
   * as it is produced (SQL rows, CSV, blocked gzip and the SFTP write in one pass; a remote file
   * host to host), appears by rename when complete, and nothing is written on this server. A broken
   * stream is retried from the start. The manifest is the same as a local stage-in's.
   *
   * @param directory the job directory's absolute path on the cluster; it must exist
   */
  public Manifest stageIn(
      StageInPlan plan, ClusterConnection cluster, String directory, StagingListener listener)
      throws StagingException {
    return stageIn(plan, remoteDirectory(cluster, directory), listener);
  }

  /**
   * Stage-in into {@code localDirectory}, a directory of this host, whose {@code gantry-job:}
   * sources are earlier jobs' directories on the cluster, read over SFTP on {@code cluster}: the
   * server's follow of a streamed input into its own spill copy, where job directories lie on a
   * cluster (docs/workflows.md, "Streaming between stages").
   */
  public Manifest stageInFromCluster(
      StageInPlan plan, ClusterConnection cluster, Path localDirectory, StagingListener listener)
      throws StagingException {
    return stageIn(
        plan,
        new io.gantry.staging.internal.ssh.ClusterSourcedDirectory(
            openJobDirectory(localDirectory), cluster.link()),
        listener);
  }

  private Manifest stageIn(StageInPlan plan, JobFiles dir, StagingListener listener)
      throws StagingException {
    PlanProgress progress = new PlanProgress(listener == null ? StagingListener.NONE : listener);
    // The stage-in cache is a feature of local job directories: its copies live on this server
    // and a hit is a hard link, which cannot reach a job directory on a cluster.
    StageInCache c = dir.local() == null ? null : cache;
    SqlSteps env =
        new SqlSteps(
            dir,
            credentials,
            pools,
            compressionPool,
            options,
            policy,
            c == null ? null : c.store(),
            DurableCommit.NONE);
    List<ManifestRecord> records = new ArrayList<>();
    records.addAll(run("transfers", transfers(plan.transfers(), dir, env.cache()), progress));
    records.addAll(run("uris", uriTransfers(plan.uriTransfers(), dir, env.cache()), progress));
    List<Step> extracts = new ArrayList<>();
    plan.extracts().forEach(x -> extracts.add(new SqlExtractStep(x, env)));
    records.addAll(run("sql", extracts, progress));
    return new Manifest(records);
  }

  /**
   * Stage-out: SQL loads group by group (each step one transaction, exactly once per job via the
   * ledger table), then remote transfers in ArrangingOrder.
   */
  public Manifest stageOut(StageOutPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return stageOut(plan, openJobDirectory(jobDirectory), listener);
  }

  /**
   * Stage-out from a job directory on a cluster: each file streams back over SFTP (read, inflated
   * if compressed, parsed and loaded in one pass), the same steps and ledger as a local stage-out.
   */
  public Manifest stageOut(
      StageOutPlan plan, ClusterConnection cluster, String directory, StagingListener listener)
      throws StagingException {
    return stageOut(plan, remoteDirectory(cluster, directory), listener);
  }

  private Manifest stageOut(StageOutPlan plan, JobFiles dir, StagingListener listener)
      throws StagingException {
    PlanProgress progress = new PlanProgress(listener == null ? StagingListener.NONE : listener);
    SqlSteps env =
        new SqlSteps(
            dir, credentials, pools, compressionPool, options, policy, null, durableCommit);
    List<Step> loads = new ArrayList<>();
    plan.loads().forEach(l -> loads.add(new SqlLoadStep(l, env, plan.jobId())));
    List<ManifestRecord> records = new ArrayList<>(run("sql", loads, progress));
    records.addAll(run("transfers", transfers(plan.transfers(), dir, null), progress));
    records.addAll(run("uris", uriTransfers(plan.uriTransfers(), dir, null), progress));
    return new Manifest(records);
  }

  /**
   * GFD.56 {@code DeleteOnTermination}: removes the plan's marked files once the job has
   * terminated, whatever its outcome (after a successful stage-out, a failed program, a kill or a
   * failed staging step alike). Call it once the job is final.
   *
   * @return the files removed (a marked file that does not exist is skipped)
   */
  public List<StagedName> deleteOnTermination(StageOutPlan plan, Path jobDirectory)
      throws StagingException {
    if (plan.deleteOnTermination().isEmpty()) {
      return List.of();
    }
    try {
      JobDirectory dir =
          java.nio.file.Files.isDirectory(jobDirectory) ? openJobDirectory(jobDirectory) : null;
      return DeleteOnTermination.apply(dir, plan.deleteOnTermination());
    } catch (IOException e) {
      throw new StagingException("DeleteOnTermination", e.getMessage(), e);
    }
  }

  /** DeleteOnTermination for a job directory on a cluster (see the local form). */
  public List<StagedName> deleteOnTermination(
      StageOutPlan plan, ClusterConnection cluster, String directory) throws StagingException {
    if (plan.deleteOnTermination().isEmpty()) {
      return List.of();
    }
    try {
      JobFiles dir = cluster.exists(directory) ? remoteDirectory(cluster, directory) : null;
      return DeleteOnTermination.apply(dir, plan.deleteOnTermination());
    } catch (IOException e) {
      throw new StagingException("DeleteOnTermination", e.getMessage(), e);
    }
  }

  private static JobFiles remoteDirectory(ClusterConnection cluster, String directory)
      throws StagingException {
    try {
      return new RemoteJobDirectory(cluster.link(), directory);
    } catch (IOException e) {
      throw new StagingException("staging", e.getMessage(), e);
    }
  }

  private List<Step> uriTransfers(
      List<UriTransfer> transfers, JobFiles dir, CacheStore stageInCache) {
    List<Step> steps = new ArrayList<>();
    // an earlier job's directory is opened on the same side as this job's (host or cluster)
    Map<String, UriScheme> schemes = new java.util.HashMap<>(uriSchemes);
    schemes.put(io.gantry.jsdl.JobOutputUri.SCHEME, new JobOutputScheme(jobOutputs, dir));
    transfers.forEach(
        t ->
            steps.add(
                new UriTransferStep(
                    t, dir, credentials, options, uriPolicy, schemes, stageInCache)));
    return steps;
  }

  private List<Step> transfers(
      List<RemoteTransfer> transfers, JobFiles dir, CacheStore stageInCache) {
    List<Step> steps = new ArrayList<>();
    transfers.forEach(
        t ->
            steps.add(
                new RemoteTransferStep(
                    t, dir, credentials, options, policy, compressionPool, stageInCache)));
    return steps;
  }

  private List<ManifestRecord> run(String phase, List<Step> steps, PlanProgress progress)
      throws StagingException {
    return steps.isEmpty()
        ? List.of()
        : new GroupedExecution(stepPool, options.stepThreads()).run(phase, steps, progress);
  }

  private static JobDirectory openJobDirectory(Path jobDirectory) throws StagingException {
    try {
      return new JobDirectory(jobDirectory);
    } catch (IOException e) {
      throw new StagingException("staging", e.getMessage(), e);
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void close() {
    stepPool.shutdownNow();
    compressionPool.shutdownNow();
    pools.close();
  }
}
