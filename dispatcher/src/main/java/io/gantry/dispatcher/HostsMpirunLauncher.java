package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.JobStarter;
import io.gantry.dispatcher.internal.RemoteEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Runs MPI jobs with Open MPI across the hosts of the operator's host file: mpirun runs here and
 * starts its daemons on the other hosts over ssh ({@link SshLaunchAgent}). A job's own host file is
 * not used: its host names would reach ssh's command line with the operator's key, so the
 * operator's file decides where jobs run.
 */
public final class HostsMpirunLauncher implements Launcher, AutoCloseable {
  /** mpirun and ssh need PATH and HOME besides the locale: this runs outside any sandbox. */
  private static final List<String> INHERITED =
      List.of("PATH", "HOME", "LANG", "LC_ALL", "LD_LIBRARY_PATH");

  private final DispatcherConfig config;
  private final MpirunCommand command;
  private final Path hostFile;
  private final Function<LaunchSpec, SshLaunchAgent> agentOf;
  private final JobStarter supervisor;

  public HostsMpirunLauncher(DispatcherConfig config, Path hostFile, SshLaunchAgent agent) {
    this(config, hostFile, spec -> agent);
  }

  /**
   * As {@link #HostsMpirunLauncher(DispatcherConfig, Path, SshLaunchAgent)}, with ssh settings of
   * each job's own (its account and key): {@code agentOf} may refuse a job with an
   * IllegalArgumentException.
   */
  public HostsMpirunLauncher(
      DispatcherConfig config, Path hostFile, Function<LaunchSpec, SshLaunchAgent> agentOf) {
    if (hostFile == null || !Files.isReadable(hostFile)) {
      throw new IllegalArgumentException(
          "mpirun across hosts needs a readable host file, not " + hostFile);
    }
    this.config = config;
    this.supervisor = JobStarter.of(config);
    this.command = new MpirunCommand(config);
    this.hostFile = hostFile;
    this.agentOf = agentOf;
  }

  @Override
  public RunningJob launch(LaunchSpec spec) throws LaunchException {
    if (spec.hostFile() != null && !spec.hostFile().equals(hostFile)) {
      throw new IllegalArgumentException(
          "job "
              + spec.jobId()
              + ": jobs run on the hosts of the server's host file; a job's own host file does not apply");
    }
    LaunchSpec onHosts = withHostFile(spec);
    List<String> argv = command.argv(onHosts); // checks the job's options and environment names
    Map<String, String> env =
        new TreeMap<>(
            RemoteEnvironment.build(
                INHERITED,
                System.getenv(),
                RemoteEnvironment.serverIsRoot(),
                onHosts.environment()));
    env.putAll(agentOf.apply(spec).environment());
    return supervisor.start(onHosts, argv, env, config.killGracePeriod(), 0);
  }

  private LaunchSpec withHostFile(LaunchSpec spec) {
    LaunchSpec.Builder b =
        LaunchSpec.builder(spec.jobId(), spec.kind(), spec.executable())
            .arguments(spec.arguments().toArray(String[]::new))
            .workingDirectory(spec.workingDirectory())
            .processes(spec.processes())
            .hostFile(hostFile)
            .extraMpirunOptions(spec.extraMpirunOptions().toArray(String[]::new))
            .wallTimeLimit(spec.wallTimeLimit())
            .output(spec.stdout(), spec.stderr())
            .independentRanks(spec.independentRanks());
    spec.environment().forEach(b::environment);
    return b.build();
  }

  @Override
  public void close() {
    supervisor.close();
  }
}
