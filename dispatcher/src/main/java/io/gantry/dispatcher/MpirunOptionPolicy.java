package io.gantry.dispatcher;

import java.util.List;
import java.util.Map;

/**
 * Which {@code mpirun} options a job description may add. An allow-list, not a deny-list, because
 * Open MPI has hundreds of options and several of them run arbitrary programs or step outside the
 * job's directory, and new releases add more:
 *
 * <ol>
 *   <li>Options that start other programs are refused: {@code --prefix}, {@code --launch-agent},
 *       {@code --app} (an app file lists commands), and {@code --mca} for the launch, daemon and
 *       process-control frameworks ({@code plm_rsh_agent} names the remote shell to exec).
 *   <li>Options the dispatcher sets from the spec itself are refused, so there is one source of
 *       truth: {@code -np}, {@code --hostfile}/{@code --host}, {@code --wdir}, {@code -x},
 *       {@code --oversubscribe}, {@code --allow-run-as-root}.
 *   <li>Options that write files elsewhere are refused: {@code --output-filename},
 *       {@code --report-uri}, {@code --report-pid}, {@code --tune}.
 *   <li>Every option must be followed by exactly its number of values, and no value may start with
 *       {@code -}. A stray word would otherwise be taken by {@code mpirun} as the program to run,
 *       turning our real executable and its arguments into arguments of that word.
 *   <li>No token may contain NUL or a line break.
 * </ol>
 *
 * Single-dash long forms ({@code -bind-to}) are accepted like their double-dash spellings, as
 * Open MPI does.
 */
public final class MpirunOptionPolicy {

  /** Allowed options and how many values each takes. Placement, binding and diagnostics only. */
  private static final Map<String, Integer> ARITY =
      Map.ofEntries(
          Map.entry("--bind-to", 1),
          Map.entry("--map-by", 1),
          Map.entry("--rank-by", 1),
          Map.entry("--npernode", 1),
          Map.entry("--npersocket", 1),
          Map.entry("--cpus-per-proc", 1),
          Map.entry("--cpus-per-rank", 1),
          Map.entry("--use-hwthread-cpus", 0),
          Map.entry("--nolocal", 0),
          Map.entry("--report-bindings", 0),
          Map.entry("--display-map", 0),
          Map.entry("--display-allocation", 0),
          Map.entry("--tag-output", 0),
          Map.entry("--timestamp-output", 0),
          Map.entry("--merge-stderr-to-stdout", 0),
          Map.entry("--verbose", 0),
          Map.entry("-v", 0),
          Map.entry("--quiet", 0),
          Map.entry("-q", 0),
          Map.entry("--mca", 2));

  /**
   * MCA frameworks a job may tune: transports, collectives and MPI-IO, all inside the MPI library
   * of the job's own ranks. A parameter is allowed if it is one of these or starts with one + "_".
   */
  private static final List<String> TUNABLE_MCA_FRAMEWORKS =
      List.of("btl", "pml", "mtl", "coll", "osc", "io", "fcoll", "fs", "sharedfp", "mpi", "oob_tcp");

  private MpirunOptionPolicy() {}

  /**
   * Checks a job's extra options.
   *
   * @throws IllegalArgumentException naming the job and the first offending option
   */
  public static void check(String jobId, List<String> options) {
    int i = 0;
    while (i < options.size()) {
      String option = options.get(i);
      requireClean(jobId, option);
      Integer arity = ARITY.get(canonical(option));
      if (arity == null) {
        throw refused(jobId, option, "is not among the options a job may set");
      }
      if (i + arity >= options.size()) {
        throw refused(jobId, option, "needs " + arity + " value(s)");
      }
      for (int v = 1; v <= arity; v++) {
        String value = options.get(i + v);
        requireClean(jobId, value);
        if (value.isEmpty() || value.startsWith("-")) {
          throw refused(jobId, option, "needs " + arity + " value(s), got '" + value + "'");
        }
      }
      if (canonical(option).equals("--mca") && !tunable(options.get(i + 1))) {
        throw refused(jobId, option + " " + options.get(i + 1),
            "sets a parameter outside the tunable frameworks " + TUNABLE_MCA_FRAMEWORKS);
      }
      i += 1 + arity;
    }
  }

  private static String canonical(String option) {
    boolean singleDashLong = option.startsWith("-") && !option.startsWith("--") && option.length() > 2;
    return singleDashLong ? "-" + option : option;
  }

  private static boolean tunable(String parameter) {
    return TUNABLE_MCA_FRAMEWORKS.stream()
        .anyMatch(f -> parameter.equals(f) || parameter.startsWith(f + "_"));
  }

  private static void requireClean(String jobId, String token) {
    if (token == null || token.indexOf('\0') >= 0 || token.indexOf('\n') >= 0 || token.indexOf('\r') >= 0) {
      throw new IllegalArgumentException(
          "job " + jobId + ": mpirun options must not be null or contain NUL or line breaks");
    }
  }

  private static IllegalArgumentException refused(String jobId, String option, String why) {
    return new IllegalArgumentException("job " + jobId + ": mpirun option '" + option + "' " + why);
  }
}
