package io.gantry.server.internal.scheduler;

/** Receives progress text for a job's current phase, e.g. "stage-in: group 2 of 3, 1200 rows". */
@FunctionalInterface
public interface PhaseProgress {
  void report(String detail);
}
