package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.ChildEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code mpirun} command line for a job, as an argument array that is handed to the operating
 * system as is: no shell ever parses it, so quotes, spaces and {@code ;} in arguments are just
 * characters. Layout:
 *
 * <pre>
 * mpirun [default options] -np N [--hostfile F] [--oversubscribe] [job options]
 *        [-x NAME]... --wdir DIR executable [arguments]...
 * </pre>
 *
 * Environment variables travel by name only ({@code -x NAME}): their values sit in mpirun's own
 * environment, from where Open MPI forwards them to every rank. Command lines are readable by any
 * local user through /proc, environments are not.
 */
public final class MpirunCommand {

  /**
   * Variable prefixes that configure Open MPI itself. A job may not set them: in mpirun's own
   * environment {@code OMPI_MCA_plm_rsh_agent} and friends would choose what mpirun executes,
   * bypassing {@link MpirunOptionPolicy}.
   */
  private static final List<String> RUNTIME_PREFIXES =
      List.of("OMPI_", "OPAL_", "ORTE_", "PMIX_", "PRTE_");

  private final DispatcherConfig config;

  public MpirunCommand(DispatcherConfig config) {
    this.config = config;
  }

  /** The argument array; {@code argv().get(0)} is the configured mpirun. */
  public List<String> argv(LaunchSpec spec) {
    check(spec);
    List<String> argv = new ArrayList<>();
    argv.add(config.mpirun());
    argv.addAll(config.defaultMpirunOptions());
    argv.add("-np");
    argv.add(Integer.toString(spec.processes()));
    if (spec.hostFile() != null) {
      argv.add("--hostfile");
      argv.add(spec.hostFile().toString());
    }
    if (config.oversubscribe()) {
      argv.add("--oversubscribe");
    }
    argv.addAll(spec.extraMpirunOptions());
    for (String name : spec.environment().keySet()) {
      argv.add("-x");
      argv.add(name);
    }
    argv.add("--wdir");
    argv.add(spec.workingDirectory().toString());
    argv.add(spec.executable());
    argv.addAll(spec.arguments());
    return List.copyOf(argv);
  }

  /**
   * The environment mpirun runs with: the inherited server variables, Open MPI's run-as-root
   * consent when the server runs as root (Open MPI refuses root otherwise), then the job's own.
   */
  public Map<String, String> environment(LaunchSpec spec, Map<String, String> serverEnvironment,
      boolean runningAsRoot) {
    check(spec);
    Map<String, String> extra = runningAsRoot
        ? Map.of("OMPI_ALLOW_RUN_AS_ROOT", "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        : Map.of();
    return ChildEnvironment.build(config.inheritedEnvironment(), serverEnvironment, extra,
        spec.environment());
  }

  private static void check(LaunchSpec spec) {
    if (spec.kind() != ProgramKind.MPI) {
      throw new IllegalArgumentException("job " + spec.jobId() + " is not an MPI job");
    }
    MpirunOptionPolicy.check(spec.jobId(), spec.extraMpirunOptions());
    for (String name : spec.environment().keySet()) {
      if (RUNTIME_PREFIXES.stream().anyMatch(name::startsWith)) {
        throw new IllegalArgumentException("job " + spec.jobId() + ": environment variable "
            + name + " would configure Open MPI itself; variables starting with "
            + RUNTIME_PREFIXES + " are reserved");
      }
    }
    if (spec.executable().startsWith("-")) {
      throw new IllegalArgumentException("job " + spec.jobId()
          + ": executable must not start with '-', mpirun would read it as an option");
    }
  }
}
