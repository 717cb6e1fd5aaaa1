package io.gantry.dispatcher.farm;

/**
 * A snapshot of a farm: tasks waiting, running, final (and of those, not succeeded), the launchers
 * connected now, and those lost: whose connection ended before they were told DONE (killed, their
 * node lost).
 */
public record FarmProgress(
    int total, int queued, int running, int finished, int failed, int launchers, int lost) {

  /** Every task has a final state. */
  public boolean complete() {
    return finished == total;
  }

  /** For the job's status line, e.g. "farm: 532 of 1000 tasks final, 3 failed, 8 launchers". */
  public String describe() {
    return "farm: "
        + finished
        + " of "
        + total
        + " tasks final, "
        + failed
        + " failed, "
        + running
        + " running, "
        + launchers
        + " launcher(s) connected";
  }
}
