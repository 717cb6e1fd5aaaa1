package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.JobSandbox;
import io.gantry.dispatcher.internal.JobStarter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs POSIXApplication jobs: the executable itself, one process, no {@code mpirun}. Supervision
 * (files, wall time, tree kill, outcome) is the same as for MPI jobs, and so is the sandbox: the
 * program runs inside it under the job's OS account.
 */
public final class PosixLauncher implements Launcher, AutoCloseable {
  private final DispatcherConfig config;
  private final JobSandbox sandbox;
  private final JobStarter supervisor;

  public PosixLauncher(DispatcherConfig config) {
    this.config = config;
    this.supervisor = JobStarter.of(config);
    this.sandbox = new JobSandbox(config.sandbox());
  }

  @Override
  public RunningJob launch(LaunchSpec spec) throws LaunchException {
    if (spec.kind() != ProgramKind.POSIX) {
      throw new IllegalArgumentException("job " + spec.jobId() + " is not a POSIX job");
    }
    // The resolved path inside the sandbox, so the sandbox's PATH decides, not the server's.
    LaunchSpec inside = sandbox.inside(spec, true); // first: refuses a spec without an account
    Map<String, String> env =
        sandbox.environment(spec, config.inheritedEnvironment(), System.getenv());
    List<String> program = new ArrayList<>();
    program.add(inside.executable());
    program.addAll(spec.arguments());
    sandbox.prepareOutputs(spec);
    return supervisor.start(
        spec,
        sandbox.wrap(spec, inside, program),
        env,
        config.killGracePeriod(),
        JobSandbox.WRAPPER_DEPTH);
  }

  @Override
  public void close() {
    supervisor.close();
  }
}
