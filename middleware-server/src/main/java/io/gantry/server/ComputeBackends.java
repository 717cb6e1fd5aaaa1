package io.gantry.server;

import io.gantry.dispatcher.DetachedSupervision;
import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.HostsMpirunLauncher;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.LocalMpirunLauncher;
import io.gantry.dispatcher.SshLaunchAgent;
import io.gantry.dispatcher.remote.ClusterShell;
import io.gantry.dispatcher.slurm.SlurmConfig;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.pipeline.ServerCredentials;
import io.gantry.staging.ClusterConnection;
import io.gantry.staging.GatewayOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The dispatcher's launchers for the configured {@code compute.backend}. */
final class ComputeBackends {
  private static final Logger log = LoggerFactory.getLogger(ComputeBackends.class);

  private ComputeBackends() {}

  /**
   * The supervisor local and mpirun-hosts jobs run under so that they outlive the server ({@code
   * jobs.supervisor}), writing their ends under {@code DATA/supervisor}; empty when none is
   * configured, with a warning where jobs would run as the server's children (never with {@code
   * compute.ssh-host}: the configuration refuses it, jobs run in the cluster's Slurm).
   */
  static Optional<DetachedSupervision> detachedSupervision(ServerConfig config) {
    if (config.sandbox().supervisor() == null) {
      if (config.compute().backend() != ServerConfig.Backend.SLURM) {
        log.warn(
            "jobs.supervisor is not set: running jobs end when the server stops, and a restart"
                + " fails them; set it to node-programs/build/gantry-stepd");
      }
      return Optional.empty();
    }
    try {
      return Optional.of(
          new DetachedSupervision(
              config.sandbox().supervisor(), config.dataDirectory().resolve("supervisor")));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("jobs.supervisor", e.getMessage());
    }
  }

  /**
   * MPI jobs: mpirun here ({@code local}), or across the host file's hosts over ssh ({@code
   * mpirun-hosts}).
   */
  static Launcher mpiLauncher(ServerConfig config, DispatcherConfig dispatch) {
    ServerConfig.Compute c = config.compute();
    if (c.backend() != ServerConfig.Backend.MPIRUN_HOSTS) {
      return new LocalMpirunLauncher(dispatch);
    }
    try {
      return new HostsMpirunLauncher(
          dispatch,
          config.hostFile(),
          new SshLaunchAgent(
              c.sshAgent(), c.sshIdentity(), c.sshKnownHosts(), c.sshUser(), c.sshConfig()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("mpirun.hostfile", e.getMessage());
    }
  }

  /**
   * The SSH connection to the cluster of {@code compute.ssh-host}: the host key checked strictly
   * against {@code compute.ssh-known-hosts} whatever {@code ssh.accept-unknown-host-keys} says.
   */
  static ClusterConnection clusterConnection(
      ServerConfig.Cluster cluster, ServerCredentials credentials, GatewayOptions options) {
    return new ClusterConnection(
        cluster.user(),
        cluster.host(),
        cluster.port(),
        () -> credentials.clusterLogin(cluster.identity()),
        options.withKnownHosts(cluster.knownHosts(), false));
  }

  /**
   * Slurm on the cluster: its commands (from {@code slurm.bin-dir} there, or the login shell's
   * PATH) run over the connection's exec channels, the batch script lies in {@code
   * compute.root/.gantry}.
   */
  static SlurmLauncher clusterSlurmLauncher(ServerConfig config, ClusterConnection cluster)
      throws IOException {
    ServerConfig.Compute c = config.compute();
    return SlurmLauncher.overSsh(
        new SlurmConfig(
            c.slurmBinDirectory(),
            null,
            c.slurmPollInterval(),
            c.slurmMpirun(),
            Path.of(c.cluster().root(), ".gantry"),
            c.slurmCommandTimeout(),
            List.of()),
        new ClusterShell(cluster::session, c.slurmCommandTimeout()),
        cluster.user());
  }

  /**
   * Slurm's client commands from {@code slurm.bin-dir}, the batch script under the data directory.
   */
  static SlurmLauncher slurmLauncher(ServerConfig config) throws IOException {
    ServerConfig.Compute c = config.compute();
    return new SlurmLauncher(
        new SlurmConfig(
            c.slurmBinDirectory(),
            c.slurmConf(),
            c.slurmPollInterval(),
            c.slurmMpirun(),
            config.dataDirectory().resolve("slurm"),
            c.slurmCommandTimeout(),
            SlurmConfig.DEFAULT_INHERITED_ENVIRONMENT));
  }
}
