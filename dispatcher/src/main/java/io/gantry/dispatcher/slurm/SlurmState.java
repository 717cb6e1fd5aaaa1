package io.gantry.dispatcher.slurm;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's state as Slurm reports it: {@code JobState} and {@code ExitCode} ("code:signal") from
 * {@code scontrol show job -o ID}, or the same from {@code sacct -c -n -P -o
 * jobid,state,exitcode,nodelist} once the controller has forgotten the job.
 *
 * @param state Slurm's state name, e.g. RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT
 * @param exitCode the batch script's exit code
 * @param signal the signal that ended it, 0 for none
 * @param nodes the nodes the job ran on, when known
 */
record SlurmState(String state, int exitCode, int signal, String nodes) {
  /** States after which nothing of the job runs any more. */
  private static final Set<String> FINAL =
      Set.of(
          "COMPLETED",
          "FAILED",
          "CANCELLED",
          "TIMEOUT",
          "NODE_FAIL",
          "OUT_OF_MEMORY",
          "BOOT_FAIL",
          "DEADLINE",
          "PREEMPTED",
          "REVOKED",
          "SPECIAL_EXIT");

  // The first occurrence counts: scontrol prints JobState and ExitCode before WorkDir and
  // Command, the fields a job's own text can reach.
  private static final Pattern JOB_STATE = Pattern.compile("(?:^|\\s)JobState=([A-Z_]+)");
  private static final Pattern EXIT_CODE = Pattern.compile("(?:^|\\s)ExitCode=(\\d+):(\\d+)");
  private static final Pattern NODE_LIST = Pattern.compile("(?:^|\\s)NodeList=(\\S+)");
  private static final Pattern SACCT =
      Pattern.compile("(\\d+)\\|([A-Z_]+)[^|]*\\|(\\d+):(\\d+)\\|([^|\\s]*)");

  boolean isFinal() {
    return FINAL.contains(state);
  }

  /** The status a shell would report: the exit code, or 128 + the signal. */
  int exitStatus() {
    return signal > 0 ? 128 + signal : exitCode;
  }

  /** One line for the job's audit trail, e.g. "Slurm: FAILED 3:0 on n[1-2]". */
  String describe() {
    return "Slurm: "
        + state
        + " "
        + exitCode
        + ":"
        + signal
        + (nodes == null || nodes.isEmpty() || nodes.equals("(null)") ? "" : " on " + nodes);
  }

  static Optional<SlurmState> fromScontrol(String output) {
    Matcher state = JOB_STATE.matcher(output);
    if (!state.find()) {
      return Optional.empty();
    }
    Matcher exit = EXIT_CODE.matcher(output);
    boolean hasExit = exit.find();
    Matcher nodes = NODE_LIST.matcher(output);
    return Optional.of(
        new SlurmState(
            state.group(1),
            hasExit ? Integer.parseInt(exit.group(1)) : 0,
            hasExit ? Integer.parseInt(exit.group(2)) : 0,
            nodes.find() ? nodes.group(1) : null));
  }

  /** The job's own line of {@code sacct -c} output (steps such as "12.batch" are skipped). */
  static Optional<SlurmState> fromSacct(String output, String jobId) {
    for (String line : output.split("\n")) {
      Matcher m = SACCT.matcher(line.strip());
      if (m.matches() && m.group(1).equals(jobId)) {
        return Optional.of(
            new SlurmState(
                m.group(2),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)),
                m.group(5)));
      }
    }
    return Optional.empty();
  }
}
