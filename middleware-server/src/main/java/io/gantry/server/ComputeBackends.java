package io.gantry.server;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.HostsMpirunLauncher;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.LocalMpirunLauncher;
import io.gantry.dispatcher.SshLaunchAgent;
import io.gantry.dispatcher.slurm.SlurmConfig;
import io.gantry.dispatcher.slurm.SlurmLauncher;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import java.io.IOException;

/** The dispatcher's launchers for the configured {@code compute.backend}. */
final class ComputeBackends {
  private ComputeBackends() {}

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
