package io.gantry.server.compute.internal;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.HostsMpirunLauncher;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.SshLaunchAgent;
import io.gantry.server.compute.BackendContext;
import io.gantry.server.compute.ComputeBackend;
import io.gantry.server.compute.ComputePolicy;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import java.util.Map;

/**
 * {@code compute.backend=mpirun-hosts}: as {@code compute.backend=local}, but MPI programs run
 * across the hosts of {@code mpirun.hostfile}, mpirun starting its daemons over ssh ({@code
 * mpirun.ssh-*}). The operator's hosts decide where a job runs: a job's own host file is ignored,
 * so that its host names never reach ssh with the operator's key, and the job sees host paths (no
 * sandbox), which the hosts must share.
 */
public final class MpirunHostsBackend extends MpirunBackend {
  private MpirunHostsBackend(BackendContext context) {
    super(
        "mpirun-hosts",
        policy(context.config().compute()),
        context,
        dispatch -> hostsLauncher(context.config(), dispatch));
  }

  /** What this backend makes of jobs (the registration's policy). */
  public static ComputePolicy policy(ServerConfig.Compute settings) {
    return new ComputePolicy("mpirun-hosts", false, false, false, false, null, null, Map.of());
  }

  /** The registration's constructor. */
  public static ComputeBackend create(BackendContext context) {
    return new MpirunHostsBackend(context);
  }

  private static Launcher hostsLauncher(ServerConfig config, DispatcherConfig dispatch) {
    ServerConfig.Compute c = config.compute();
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
}
