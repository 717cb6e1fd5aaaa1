package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.remote.ClusterShell;
import io.gantry.dispatcher.slurm.SlurmConfig;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.BackendContext;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputePolicy;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.ClusterConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code compute.backend=slurm} with {@code compute.ssh-host}: job directories under {@code
 * compute.root} on the cluster's file system, reached over SFTP, and every job submitted to the
 * Slurm of its login node over SSH. Jobs run as the cluster account the server logs in as ({@code
 * compute.ssh-user}), or with {@code compute.user-certificates} each job logs in as its owner's own
 * account with a certificate of the server's SSH user CA ({@link ClusterLogins}): its directory
 * ({@code compute.root/ACCOUNT/JOB}), staging, sbatch, scontrol, sacct and scancel are all that
 * account's, and Slurm runs the job as it. Task farms and worker sessions, whose dispatchers live
 * on this host, are refused.
 */
public final class ClusterSlurmBackend extends SlurmJobsBackend {
  private static final Logger log = LoggerFactory.getLogger(ClusterSlurmBackend.class);

  private final ClusterConnection cluster;

  /** Each job's own login; null where every job is compute.ssh-user's. */
  private final ClusterLogins logins;

  private ClusterSlurmBackend(
      ServerConfig.Compute compute,
      Path stagingRoot,
      ClusterConnection cluster,
      ClusterLogins logins,
      SlurmLauncher slurm) {
    super(
        policy(compute, logins != null),
        new ClusterDirectories(cluster, logins, compute.cluster().root(), stagingRoot),
        slurm,
        null);
    this.cluster = cluster;
    this.logins = logins;
  }

  /** What this backend makes of jobs (the registration's policy). */
  public static ComputePolicy policy(ServerConfig.Compute compute) {
    return policy(compute, false);
  }

  private static ComputePolicy policy(ServerConfig.Compute compute, boolean accountDirectories) {
    return new ComputePolicy(
        "slurm",
        false,
        false,
        true,
        true,
        compute.slurmPartition(),
        compute.slurmAccount(),
        compute.slurmUsers(),
        accountDirectories);
  }

  /**
   * The registration's constructor: the SSH connection to the login node, its host key checked
   * strictly against {@code compute.ssh-known-hosts} whatever {@code ssh.accept-unknown-host-keys}
   * says; Slurm's commands (from {@code slurm.bin-dir} there, or the login shell's PATH) over its
   * exec channels, the batch script in {@code compute.root/.gantry}.
   */
  public static ComputeBackend create(BackendContext context) throws IOException {
    ServerConfig config = context.config();
    StartupChecks.hostFileUnused(config, "slurm");
    ServerConfig.Compute c = config.compute();
    ServerConfig.Cluster settings = c.cluster();
    if (!context.identities().contains(settings.identity())) {
      throw new ConfigException(
          "compute.ssh-identity",
          "names no SSH identity: define identity." + settings.identity() + ".key-file");
    }
    ClusterConnection cluster =
        new ClusterConnection(
            settings.user(),
            settings.host(),
            settings.port(),
            () -> context.clusterLogin().apply(settings.identity()),
            context.gatewayOptions().withKnownHosts(settings.knownHosts(), false));
    log.info("job directories on the cluster {} under {}", cluster.describe(), settings.root());
    ClusterLogins logins = null;
    try {
      SlurmConfig slurmConfig =
          new SlurmConfig(
                  c.slurmBinDirectory(),
                  null,
                  c.slurmPollInterval(),
                  c.slurmMpirun(),
                  Path.of(settings.root(), ".gantry"),
                  c.slurmCommandTimeout(),
                  List.of())
              .withNodeSandbox(NodeSandboxes.of(config, context.dispatch()));
      ClusterShell operator = new ClusterShell(cluster::session, c.slurmCommandTimeout());
      SlurmLauncher slurm;
      if (config.sshCertificates().enabled()) {
        ClusterLogins own =
            new ClusterLogins(
                settings,
                context.gatewayOptions().withKnownHosts(settings.knownHosts(), false),
                JobSshLogins.certificatesOf(config),
                cluster);
        logins = own;
        log.info("each job logs in to the cluster as its own account, with a certificate");
        slurm =
            SlurmLauncher.overSshPerJob(
                slurmConfig,
                operator,
                cluster.user(),
                jobId ->
                    new ClusterShell(() -> own.ofJob(jobId).session(), c.slurmCommandTimeout()));
      } else {
        slurm = SlurmLauncher.overSsh(slurmConfig, operator, cluster.user());
      }
      return new ClusterSlurmBackend(c, config.stagingRoot(), cluster, logins, slurm);
    } catch (IOException | RuntimeException e) {
      if (logins != null) {
        logins.close();
      }
      cluster.close();
      throw e;
    }
  }

  /** The cluster is reached per job over SSH; its connection is not probed here. */
  @Override
  public Optional<String> readinessProblem() {
    return Optional.empty();
  }

  /** The directories its output goes to, made over SFTP; no account is looked up. */
  @Override
  public JobAccount prepare(ProgramStart job) throws IOException {
    for (Path dir :
        List.of(
            job.launch().workingDirectory(),
            job.launch().stdout().getParent(),
            job.launch().stderr().getParent())) {
      cluster.createDirectories(dir.toString());
    }
    return null;
  }

  /**
   * As the cluster account the server logs in as, or the job's own account over its own login
   * (sbatch without {@code --uid}: Slurm runs the job as whoever submits it).
   */
  @Override
  public RunningJob start(ProgramStart job, JobAccount account) throws LaunchException {
    if (logins != null) {
      try {
        logins.ofDirectory(job.jobDirectory());
      } catch (IOException e) {
        throw new LaunchException("job " + job.jobId() + ": " + e.getMessage(), e);
      }
    }
    return submit(job, job.launch(), null);
  }

  /** The job's Slurm commands go over its own login again (a new certificate: nothing is kept). */
  @Override
  public Optional<RunningJob> reattach(String jobId, Path jobDirectory, String reference)
      throws JobFailure {
    if (logins != null) {
      try {
        logins.ofDirectory(jobDirectory);
      } catch (IOException e) {
        throw new JobFailure(e.getMessage(), e);
      }
    }
    return reattach(jobId, reference);
  }

  /** Refused at submission too; this is for a farm submitted before compute.ssh-host was set. */
  /** With per-user certificates: whether the account logs in to the login node now. */
  @Override
  public Optional<String> accountReachProblem(String account) {
    return logins == null ? Optional.empty() : logins.reachProblem(account);
  }

  @Override
  public Optional<String> farmRefusal() {
    return Optional.of(
        "task farms run on the server's own host, and this server runs its jobs on the cluster"
            + " of compute.ssh-host");
  }

  @Override
  public RunningJob startFarmLaunchers(ProgramStart job, LaunchSpec launchers, JobAccount account)
      throws LaunchException {
    throw new LaunchException(farmRefusal().orElseThrow());
  }

  @Override
  public void forget(String jobId) {
    super.forget(jobId);
    if (logins != null) {
      logins.release(jobId);
    }
  }

  @Override
  public void close() {
    super.close();
    if (logins != null) {
      logins.close();
    }
    cluster.close();
  }
}
