package io.gantry.dispatcher;

import io.gantry.jsdl.MpirunOptionPolicy;
import io.gantry.jsdl.ReservedEnvironment;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code mpirun} command line for a job, as an argument array that is handed to the operating
 * system as is: no shell ever parses it, so quotes, spaces and {@code ;} in arguments are just
 * characters. Layout:
 *
 * <pre>
 * mpirun [default options] -np N [--hostfile F] [--oversubscribe] [--enable-recovery]
 *        [job options] [-x NAME]... --wdir DIR executable [arguments]...
 * </pre>
 *
 * {@code --enable-recovery} is there for independent ranks only ({@link
 * LaunchSpec#independentRanks()}: a task farm's launchers): without it Open MPI aborts every rank
 * when one dies, and a farm would lose all its launchers to one killed process. Open MPI then
 * prints a {@code PMIX ERROR: BAD-PARAM} line for the rank that died, and exits 0 even when every
 * rank died: the farm's dispatcher, not mpirun's status, says whether the job's work was done.
 *
 * <p>Environment variables travel by name only ({@code -x NAME}): their values sit in mpirun's own
 * environment, from where Open MPI forwards them to every rank. Command lines are readable by any
 * local user through /proc, environments are not. The launcher runs this command inside the job's
 * sandbox, so the paths in the spec it is given are those inside the sandbox ({@code /job/...}).
 */
public final class MpirunCommand {

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
    if (spec.independentRanks()) {
      argv.add("--enable-recovery");
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

  private static void check(LaunchSpec spec) {
    if (spec.kind() != ProgramKind.MPI) {
      throw new IllegalArgumentException("job " + spec.jobId() + " is not an MPI job");
    }
    MpirunOptionPolicy.check(spec.jobId(), spec.extraMpirunOptions());
    // The values sit in mpirun's own environment: names that steer the loader, the C library or
    // Open MPI (OMPI_MCA_plm_rsh_agent chooses what mpirun executes) are refused here too.
    for (String name : spec.environment().keySet()) {
      if (!ReservedEnvironment.setByServer(name)) {
        ReservedEnvironment.problem(name)
            .ifPresent(
                problem -> {
                  throw new IllegalArgumentException("job " + spec.jobId() + ": " + problem);
                });
      }
    }
    if (spec.executable().startsWith("-")) {
      throw new IllegalArgumentException(
          "job "
              + spec.jobId()
              + ": executable must not start with '-', mpirun would read it as an option");
    }
  }
}
