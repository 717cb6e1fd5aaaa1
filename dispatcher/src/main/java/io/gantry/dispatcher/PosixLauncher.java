package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.ChildEnvironment;
import io.gantry.dispatcher.internal.Executables;
import io.gantry.dispatcher.internal.ProcessSupervisor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs POSIXApplication jobs: the executable itself, one process, no {@code mpirun}. Supervision
 * (files, wall time, tree kill, outcome) is the same as for MPI jobs.
 */
public final class PosixLauncher implements Launcher, AutoCloseable {
  private final DispatcherConfig config;
  private final ProcessSupervisor supervisor = new ProcessSupervisor();

  public PosixLauncher(DispatcherConfig config) {
    this.config = config;
  }

  @Override
  public RunningJob launch(LaunchSpec spec) throws LaunchException {
    if (spec.kind() != ProgramKind.POSIX) {
      throw new IllegalArgumentException("job " + spec.jobId() + " is not a POSIX job");
    }
    Map<String, String> env = ChildEnvironment.build(
        config.inheritedEnvironment(), System.getenv(), Map.of(), spec.environment());
    // The resolved path, so the job's PATH decides, not the server's (the JDK would use its own).
    List<String> argv = new ArrayList<>();
    argv.add(Executables.resolve(spec, env.get("PATH")).toString());
    argv.addAll(spec.arguments());
    return supervisor.start(spec, argv, env, config.killGracePeriod());
  }

  @Override
  public void close() {
    supervisor.close();
  }
}
