package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.JobStarter;
import io.gantry.dispatcher.internal.LostHosts;
import io.gantry.dispatcher.internal.RemoteEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs MPI jobs with Open MPI across the hosts of the operator's host file: mpirun runs here and
 * starts its daemons on the other hosts over ssh ({@link SshLaunchAgent}). A job's own host file is
 * not used: its host names would reach ssh's command line with the operator's key, so the
 * operator's file decides where jobs run.
 */
public final class HostsMpirunLauncher implements Launcher, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HostsMpirunLauncher.class);

  /** How long the probe of the hosts' sandbox may take (one small mpirun). */
  private static final Duration PROBE_LIMIT = Duration.ofSeconds(60);

  /** mpirun and ssh need PATH and HOME besides the locale: this runs outside any sandbox. */
  private static final List<String> INHERITED =
      List.of("PATH", "HOME", "LANG", "LC_ALL", "LD_LIBRARY_PATH");

  private final DispatcherConfig config;
  private final MpirunCommand command;
  private final Path hostFile;
  private final Function<LaunchSpec, SshLaunchAgent> agentOf;
  private final JobStarter supervisor;

  /** The sandbox every rank starts in on its host, or null: ranks run unconfined. */
  private final NodeSandbox nodeSandbox;

  /** Remote accounts whose probe found a sandbox on every host (bubblewrap is rarely removed). */
  private final Set<String> probed = ConcurrentHashMap.newKeySet();

  public HostsMpirunLauncher(DispatcherConfig config, Path hostFile, SshLaunchAgent agent) {
    this(config, hostFile, spec -> agent, null);
  }

  /** As above, every rank sandboxed on its host by {@code nodeSandbox} (null: unconfined). */
  public HostsMpirunLauncher(
      DispatcherConfig config, Path hostFile, SshLaunchAgent agent, NodeSandbox nodeSandbox) {
    this(config, hostFile, spec -> agent, nodeSandbox);
  }

  /**
   * As {@link #HostsMpirunLauncher(DispatcherConfig, Path, SshLaunchAgent)}, with ssh settings of
   * each job's own (its account and key): {@code agentOf} may refuse a job with an
   * IllegalArgumentException; every rank sandboxed on its host by {@code nodeSandbox} (null:
   * unconfined).
   */
  public HostsMpirunLauncher(
      DispatcherConfig config,
      Path hostFile,
      Function<LaunchSpec, SshLaunchAgent> agentOf,
      NodeSandbox nodeSandbox) {
    if (hostFile == null || !Files.isReadable(hostFile)) {
      throw new IllegalArgumentException(
          "mpirun across hosts needs a readable host file, not " + hostFile);
    }
    this.config = config;
    this.supervisor = JobStarter.of(config);
    this.command = new MpirunCommand(config);
    this.hostFile = hostFile;
    this.agentOf = agentOf;
    this.nodeSandbox = nodeSandbox;
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
    command.argv(onHosts); // checks the job's options and environment names first
    SshLaunchAgent agent = agentOf.apply(spec);
    Map<String, String> env =
        new TreeMap<>(
            RemoteEnvironment.build(
                INHERITED,
                System.getenv(),
                RemoteEnvironment.serverIsRoot(),
                onHosts.environment()));
    env.putAll(agent.environment());
    if (nodeSandbox != null) {
      requireSandboxes(spec.jobId(), agent, env);
      onHosts = nodeSandbox.wrap(onHosts);
    }
    return LostHosts.naming(
        supervisor.start(onHosts, command.argv(onHosts), env, config.killGracePeriod(), 0),
        onHosts.stderr());
  }

  /**
   * Starts the probe as one rank on each host, as the job's remote account: a host where no sandbox
   * starts refuses the job when the sandbox is required, naming the host and what is missing (the
   * node script would end the ranks there anyway); otherwise it is logged and the ranks there run
   * unconfined.
   */
  private void requireSandboxes(String jobId, SshLaunchAgent agent, Map<String, String> env)
      throws LaunchException {
    String account = agent.user() == null ? "" : agent.user();
    if (probed.contains(account)) {
      return;
    }
    List<String> argv = new ArrayList<>();
    argv.add(config.mpirun());
    argv.addAll(config.defaultMpirunOptions());
    argv.addAll(List.of("--hostfile", hostFile.toString(), "--map-by", "ppr:1:node"));
    argv.addAll(nodeSandbox.probe());
    String output;
    int exit;
    try {
      ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
      builder.environment().clear();
      builder.environment().putAll(env);
      Process p = builder.start();
      byte[] bytes = p.getInputStream().readNBytes(64 * 1024);
      if (!p.waitFor(PROBE_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new LaunchException(
            "job " + jobId + ": the hosts' sandbox probe did not end within " + PROBE_LIMIT);
      }
      output = new String(bytes, StandardCharsets.UTF_8);
      exit = p.exitValue();
    } catch (IOException e) {
      throw new LaunchException(
          "job " + jobId + ": cannot probe the hosts' sandbox: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException("job " + jobId + ": interrupted while probing the hosts", e);
    }
    if (exit != 0) {
      throw new LaunchException(
          "job " + jobId + ": cannot reach the hosts to probe their sandbox: " + output.strip());
    }
    List<String> problems;
    try {
      problems = NodeSandbox.problems(output);
    } catch (IllegalArgumentException e) {
      throw new LaunchException(
          "job " + jobId + ": cannot probe the hosts' sandbox: " + e.getMessage(), e);
    }
    if (problems.isEmpty()) {
      probed.add(account);
    } else if (nodeSandbox.required()) {
      throw new LaunchException(
          "job "
              + jobId
              + ": no job sandbox on "
              + String.join("; ", problems)
              + ". Every rank runs in bubblewrap on its host (compute.require-sandbox=true):"
              + " install bubblewrap there, or set compute.require-sandbox=false to run ranks"
              + " unconfined where it is missing");
    } else {
      log.warn(
          "job {}: ranks run unconfined where there is no sandbox: {}",
          jobId,
          String.join("; ", problems));
    }
  }

  private LaunchSpec withHostFile(LaunchSpec spec) {
    // mpirun runs here as the server (it needs the ssh key), never as the job's account
    return spec.relocated(spec.executable(), spec.workingDirectory(), hostFile, spec.jobDirectory())
        .withAccount(null);
  }

  @Override
  public void close() {
    supervisor.close();
  }
}
