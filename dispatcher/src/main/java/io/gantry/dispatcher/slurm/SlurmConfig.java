package io.gantry.dispatcher.slurm;

import io.gantry.dispatcher.NodeSandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Operator settings of the Slurm backend.
 *
 * @param binDirectory where {@code sbatch}, {@code scontrol}, {@code scancel} and {@code sacct} are
 *     (or wrappers of them, e.g. ones that run them on a login node); null: looked up on {@code
 *     PATH}
 * @param slurmConf the {@code SLURM_CONF} the client commands get; null: theirs by default
 * @param pollInterval how often each running job's state is asked of Slurm (one {@code scontrol}
 *     call per job and interval); at least one second, to keep slurmctld's load bounded
 * @param mpirun the {@code mpirun} on the compute nodes that starts an MPI job inside its
 *     allocation
 * @param scriptDirectory where the fixed batch script is written (the submit host's file system)
 * @param commandTimeout how long one client command may take before it counts as failed
 * @param inheritedEnvironment server variables the job's environment starts from
 * @param nodeSandbox the sandbox every program of a job starts in on its nodes, or null: none
 */
public record SlurmConfig(
    Path binDirectory,
    Path slurmConf,
    Duration pollInterval,
    String mpirun,
    Path scriptDirectory,
    Duration commandTimeout,
    List<String> inheritedEnvironment,
    NodeSandbox nodeSandbox) {

  /**
   * What the Slurm commands and the job start from: the search path and the locale, nothing else.
   */
  public static final List<String> DEFAULT_INHERITED_ENVIRONMENT =
      List.of("PATH", "LANG", "LC_ALL");

  public SlurmConfig {
    Objects.requireNonNull(pollInterval, "pollInterval");
    if (pollInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "the Slurm poll interval must be at least 1 s, was " + pollInterval);
    }
    if (mpirun == null || mpirun.isBlank()) {
      throw new IllegalArgumentException("mpirun must name the mpirun of the compute nodes");
    }
    Objects.requireNonNull(scriptDirectory, "scriptDirectory");
    Objects.requireNonNull(commandTimeout, "commandTimeout");
    inheritedEnvironment = List.copyOf(inheritedEnvironment);
  }

  /** Settings without a sandbox on the nodes. */
  public SlurmConfig(
      Path binDirectory,
      Path slurmConf,
      Duration pollInterval,
      String mpirun,
      Path scriptDirectory,
      Duration commandTimeout,
      List<String> inheritedEnvironment) {
    this(
        binDirectory,
        slurmConf,
        pollInterval,
        mpirun,
        scriptDirectory,
        commandTimeout,
        inheritedEnvironment,
        null);
  }

  /** These settings, every program of a job sandboxed on its nodes by {@code sandbox}. */
  public SlurmConfig withNodeSandbox(NodeSandbox sandbox) {
    return new SlurmConfig(
        binDirectory,
        slurmConf,
        pollInterval,
        mpirun,
        scriptDirectory,
        commandTimeout,
        inheritedEnvironment,
        sandbox);
  }

  /** The path of a Slurm client command. */
  String command(String name) {
    return binDirectory == null ? name : binDirectory.resolve(name).toString();
  }
}
