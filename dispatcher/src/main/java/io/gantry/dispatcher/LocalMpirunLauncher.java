package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.JobSandbox;
import io.gantry.dispatcher.internal.JobStarter;
import java.util.List;
import java.util.Map;

/**
 * Runs MPI jobs with Open MPI's {@code mpirun} on this host (and, through a host file, on the hosts
 * it lists). mpirun and everything under it start inside the job's sandbox, under the job's OS
 * account ({@link SandboxConfig}). See {@link MpirunCommand} for the command line and {@link
 * RunningJob} for supervision.
 */
public final class LocalMpirunLauncher implements Launcher, AutoCloseable {
  private final DispatcherConfig config;
  private final MpirunCommand command;
  private final JobSandbox sandbox;
  private final JobStarter supervisor;

  public LocalMpirunLauncher(DispatcherConfig config) {
    this.config = config;
    this.supervisor = JobStarter.of(config);
    this.command = new MpirunCommand(config);
    this.sandbox = new JobSandbox(config.sandbox());
  }

  @Override
  public RunningJob launch(LaunchSpec spec) throws LaunchException {
    List<String> argv = commandLine(spec);
    Map<String, String> env = environment(spec);
    sandbox.prepareOutputs(spec);
    return supervisor.start(spec, argv, env, config.killGracePeriod(), JobSandbox.WRAPPER_DEPTH);
  }

  /**
   * The whole argument array a job starts with: bwrap, setpriv, then mpirun with the spec's paths
   * as the sandbox shows them. Checks the spec (options, environment, executable) first.
   */
  public List<String> commandLine(LaunchSpec spec) throws LaunchException {
    if (spec.kind() != ProgramKind.MPI) {
      throw new IllegalArgumentException("job " + spec.jobId() + " is not an MPI job");
    }
    LaunchSpec inside = sandbox.inside(spec, false);
    return sandbox.wrap(spec, inside, command.argv(inside));
  }

  /** mpirun's environment: built by the sandbox, the job's variables forwarded to ranks by -x. */
  public Map<String, String> environment(LaunchSpec spec) {
    return sandbox.environment(spec, config.inheritedEnvironment(), System.getenv());
  }

  @Override
  public void close() {
    supervisor.close();
  }
}
