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
 * compute.ssh-user}): there is no per-user account switch on the cluster. Task farms and worker
 * sessions, whose dispatchers live on this host, are refused.
 */
public final class ClusterSlurmBackend extends SlurmJobsBackend {
  private static final Logger log = LoggerFactory.getLogger(ClusterSlurmBackend.class);

  private final ClusterConnection cluster;

  private ClusterSlurmBackend(
      ServerConfig.Compute compute, ClusterConnection cluster, SlurmLauncher slurm) {
    super(policy(compute), new ClusterDirectories(cluster, compute.cluster().root()), slurm, null);
    this.cluster = cluster;
  }

  /** What this backend makes of jobs (the registration's policy). */
  public static ComputePolicy policy(ServerConfig.Compute compute) {
    return new ComputePolicy(
        "slurm",
        false,
        false,
        true,
        true,
        compute.slurmPartition(),
        compute.slurmAccount(),
        compute.slurmUsers());
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
    try {
      SlurmLauncher slurm =
          SlurmLauncher.overSsh(
              new SlurmConfig(
                  c.slurmBinDirectory(),
                  null,
                  c.slurmPollInterval(),
                  c.slurmMpirun(),
                  Path.of(settings.root(), ".gantry"),
                  c.slurmCommandTimeout(),
                  List.of()),
              new ClusterShell(cluster::session, c.slurmCommandTimeout()),
              cluster.user());
      return new ClusterSlurmBackend(c, cluster, slurm);
    } catch (IOException | RuntimeException e) {
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

  /** As the cluster account the server logs in as. */
  @Override
  public RunningJob start(ProgramStart job, JobAccount account) throws LaunchException {
    return submit(job, job.launch(), null);
  }

  /** Refused at submission too; this is for a farm submitted before compute.ssh-host was set. */
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
  public void close() {
    super.close();
    cluster.close();
  }
}
