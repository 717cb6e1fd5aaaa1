package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.CurrentUser;
import io.gantry.dispatcher.internal.Executables;
import io.gantry.dispatcher.internal.ProcessSupervisor;
import java.util.Map;

/**
 * Runs MPI jobs with Open MPI's {@code mpirun} on this host (and, through a host file, on the hosts
 * it lists). See {@link MpirunCommand} for the command line and {@link RunningJob} for supervision.
 */
public final class LocalMpirunLauncher implements Launcher, AutoCloseable {
  private final DispatcherConfig config;
  private final MpirunCommand command;
  private final ProcessSupervisor supervisor = new ProcessSupervisor();

  public LocalMpirunLauncher(DispatcherConfig config) {
    this.config = config;
    this.command = new MpirunCommand(config);
  }

  @Override
  public RunningJob launch(LaunchSpec spec) throws LaunchException {
    Map<String, String> env = command.environment(spec, System.getenv(), CurrentUser.isRoot());
    if (spec.hostFile() == null) {
      // Only a purely local job's executable is on this host's file system to check.
      Executables.resolve(spec, env.get("PATH"));
    }
    return supervisor.start(spec, command.argv(spec), env, config.killGracePeriod());
  }

  @Override
  public void close() {
    supervisor.close();
  }
}
