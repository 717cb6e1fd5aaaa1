package io.gantry.dispatcher.slurm;

import io.gantry.dispatcher.remote.ClusterShell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs Slurm's client commands on the cluster's login node over SSH ({@link ClusterShell}: one exec
 * channel per command on the server's one connection, each argument array quoted by {@link
 * io.gantry.dispatcher.remote.PosixShellQuoting}). The login shell's environment applies there
 * (PATH, SLURM_CONF); a job's own variables go to {@code sbatch --export-file=3}, NUL-separated
 * over the channel's input, so they never appear on a command line of the login node.
 */
final class SshSlurmClient implements SlurmClient {
  private final SlurmConfig config;
  private final ClusterShell shell;

  SshSlurmClient(SlurmConfig config, ClusterShell shell) {
    this.config = config;
    this.shell = shell;
  }

  @Override
  public Result run(String name, List<String> args) throws IOException {
    return convert(shell.run(argv(name, List.of(), args)));
  }

  /**
   * sbatch takes the job's whole environment from the export file (the submitting shell's own is
   * not added), so the file holds the login environment ({@code env -0} on the login node, less the
   * SSH session's own variables) with the job's variables over it: the job finds PATH, and with it
   * srun and mpirun, as a job submitted by hand there would.
   */
  @Override
  public Result submit(List<String> args, Map<String, String> jobEnvironment) throws IOException {
    ClusterShell.Result login = shell.run(List.of("env", "-0"));
    if (!login.succeeded()) {
      throw new IOException("cannot read the login environment: " + login.describe());
    }
    Map<String, String> environment = new TreeMap<>();
    for (String definition : login.stdout().split("\0")) {
      int eq = definition.indexOf('=');
      if (eq > 0 && !definition.startsWith("SSH_")) {
        environment.put(definition.substring(0, eq), definition.substring(eq + 1));
      }
    }
    environment.putAll(jobEnvironment);
    ByteArrayOutputStream exported = new ByteArrayOutputStream();
    for (Map.Entry<String, String> e : environment.entrySet()) {
      String definition = e.getKey() + "=" + e.getValue();
      if (definition.indexOf('\0') >= 0) {
        throw new IllegalArgumentException(
            "environment variable " + e.getKey() + " contains a NUL character");
      }
      exported.writeBytes(definition.getBytes(StandardCharsets.UTF_8));
      exported.write(0);
    }
    return convert(
        shell.run(argv("sbatch", List.of("--export-file=3"), args), exported.toByteArray()));
  }

  private List<String> argv(String name, List<String> first, List<String> args) {
    List<String> argv = new ArrayList<>();
    argv.add(config.command(name));
    argv.addAll(first);
    argv.addAll(args);
    return argv;
  }

  private static Result convert(ClusterShell.Result r) {
    return new Result(r.command(), r.exitCode(), r.stdout(), r.stderr());
  }
}
