package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Objects;

/**
 * Shows a waiting job's progress: elapsed time, state and the server's phase text, e.g. {@code 0:12
 * STAGING_IN stage-in: sql group 2 of 3, 1200 rows, 4 MB}.
 *
 * <ul>
 *   <li>On a terminal the line is redrawn in place (carriage return, clear to end of line) at every
 *       poll, so the elapsed time ticks; it is cut to the terminal width so that it never wraps,
 *       which would defeat the carriage return.
 *   <li>Elsewhere (a log file, a CI job) a new line is written only when the state or the phase
 *       text changes, so a long wait does not fill the log with ticks.
 * </ul>
 */
final class ProgressDisplay {
  static final String CLEAR_LINE = "\r\033[K";

  private final PrintWriter out;
  private final boolean terminal;
  private final StateColors colors;
  private final int width;
  private String lastShown;
  private boolean lineOpen;

  ProgressDisplay(PrintWriter out, boolean terminal, StateColors colors, int width) {
    this.out = out;
    this.terminal = terminal;
    this.colors = colors;
    this.width = Math.max(20, width);
  }

  void show(JobStatus job, Duration elapsed) {
    String phase = job.getPhase() == null ? "" : job.getPhase().strip();
    String key = job.getState() + "\n" + phase;
    if (terminal) {
      String plain =
          fit(
              (Times.elapsed(elapsed) + "  " + job.getState().value() + "  " + phase)
                  .stripTrailing());
      out.print(CLEAR_LINE + colored(plain, job));
      lineOpen = true;
    } else if (!Objects.equals(key, lastShown)) {
      out.println(
          (Times.elapsed(elapsed) + "  " + job.getState().value() + "  " + phase).stripTrailing());
    }
    lastShown = key;
    out.flush();
  }

  /** Removes the in-place line, e.g. before the job's own output is written to the terminal. */
  void clear() {
    if (terminal && lineOpen) {
      out.print(CLEAR_LINE);
      out.flush();
      lineOpen = false;
    }
  }

  /** Ends the display: on a terminal the last state stays visible on its own line. */
  void finish() {
    if (terminal && lineOpen) {
      out.println();
      out.flush();
      lineOpen = false;
    }
  }

  private String fit(String line) {
    return line.length() < width ? line : line.substring(0, width - 2) + "…";
  }

  /** Colours only the state word; the cut to width was made on the plain text. */
  private String colored(String plain, JobStatus job) {
    String state = job.getState().value();
    int at = plain.indexOf("  " + state);
    if (at < 0) {
      return plain;
    }
    return plain.substring(0, at + 2)
        + colors.state(job.getState(), 0)
        + plain.substring(at + 2 + state.length());
  }
}
