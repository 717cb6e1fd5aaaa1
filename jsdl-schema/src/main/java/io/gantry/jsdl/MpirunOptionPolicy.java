package io.gantry.jsdl;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which {@code mpirun} options a job description may add (one option or value per {@code
 * MpirunOption} element). It lives here, in the job language, so that a job breaking it is refused
 * when it is validated or submitted, with the element's line:column, rather than at launch after
 * queueing; the dispatcher checks the same policy again before it starts anything. An allow-list,
 * not a deny-list, because Open MPI has hundreds of options and several of them run arbitrary
 * programs or step outside the job's directory, and new releases add more:
 *
 * <ol>
 *   <li>Options that start other programs are refused: {@code --prefix}, {@code --launch-agent},
 *       {@code --app} (an app file lists commands), and {@code --mca} for the launch, daemon and
 *       process-control frameworks ({@code plm_rsh_agent} names the remote shell to exec).
 *   <li>Options the dispatcher sets from the spec itself are refused, so there is one source of
 *       truth: {@code -np}, {@code --hostfile}/{@code --host}, {@code --wdir}, {@code -x}, {@code
 *       --oversubscribe}, {@code --allow-run-as-root}.
 *   <li>Options that write files elsewhere are refused: {@code --output-filename}, {@code
 *       --report-uri}, {@code --report-pid}, {@code --tune}.
 *   <li>Every option must be followed by exactly its number of values, and no value may start with
 *       {@code -}. A stray word would otherwise be taken by {@code mpirun} as the program to run,
 *       turning our real executable and its arguments into arguments of that word.
 *   <li>No token may contain NUL or a line break.
 * </ol>
 *
 * Single-dash long forms ({@code -bind-to}) are accepted like their double-dash spellings, as Open
 * MPI does.
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
      List.of(
          "btl", "pml", "mtl", "coll", "osc", "io", "fcoll", "fs", "sharedfp", "mpi", "oob_tcp");

  /**
   * The first token that breaks the policy and why.
   *
   * @param index position of the offending token in the list (an option, or the value that is
   *     missing or wrong: then the position of its option)
   * @param message what is wrong, naming the option, e.g. {@code mpirun option '--prefix' is not
   *     among the options a job may set}
   */
  public record Violation(int index, String message) {}

  private MpirunOptionPolicy() {}

  /** The first violation in {@code options}, or empty when a job may pass them all. */
  public static Optional<Violation> firstViolation(List<String> options) {
    int i = 0;
    while (i < options.size()) {
      String option = options.get(i);
      if (!clean(option)) {
        return violation(i, "mpirun options must not contain NUL or line breaks");
      }
      Integer arity = ARITY.get(canonical(option));
      if (arity == null) {
        return refused(
            i,
            option,
            "is not among the options a job may set (one option or value per"
                + " MpirunOption element; allowed: "
                + String.join(", ", ARITY.keySet().stream().sorted().toList())
                + ")");
      }
      if (i + arity >= options.size()) {
        return refused(
            i, option, "needs " + arity + " value(s), each in its own MpirunOption element");
      }
      for (int v = 1; v <= arity; v++) {
        String value = options.get(i + v);
        if (!clean(value)) {
          return violation(i + v, "mpirun options must not contain NUL or line breaks");
        }
        if (value.isEmpty() || value.startsWith("-")) {
          return refused(i + v, option, "needs " + arity + " value(s), got '" + value + "'");
        }
      }
      if (canonical(option).equals("--mca") && !tunable(options.get(i + 1))) {
        return refused(
            i + 1,
            option + " " + options.get(i + 1),
            "sets a parameter outside the tunable frameworks " + TUNABLE_MCA_FRAMEWORKS);
      }
      i += 1 + arity;
    }
    return Optional.empty();
  }

  /**
   * Checks a job's extra options.
   *
   * @throws IllegalArgumentException naming the job and the first offending option
   */
  public static void check(String jobId, List<String> options) {
    firstViolation(options)
        .ifPresent(
            v -> {
              throw new IllegalArgumentException("job " + jobId + ": " + v.message());
            });
  }

  private static String canonical(String option) {
    boolean singleDashLong =
        option.startsWith("-") && !option.startsWith("--") && option.length() > 2;
    return singleDashLong ? "-" + option : option;
  }

  private static boolean tunable(String parameter) {
    return TUNABLE_MCA_FRAMEWORKS.stream()
        .anyMatch(f -> parameter.equals(f) || parameter.startsWith(f + "_"));
  }

  private static boolean clean(String token) {
    return token != null
        && token.indexOf('\0') < 0
        && token.indexOf('\n') < 0
        && token.indexOf('\r') < 0;
  }

  private static Optional<Violation> refused(int index, String option, String why) {
    return violation(index, "mpirun option '" + option + "' " + why);
  }

  private static Optional<Violation> violation(int index, String message) {
    return Optional.of(new Violation(index, message));
  }
}
