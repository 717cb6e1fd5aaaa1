package io.gantry.jsdl.farm;

import java.util.List;

/**
 * GFD.149's Sweep: its assignments advance together (value i of each at step i, so they must have
 * as many values), and for every step each nested sweep runs through all of its own: a nested sweep
 * makes the cross product; sibling nested sweeps each add their tasks.
 */
public record ParameterSweep(List<SweepAssignment> assignments, List<ParameterSweep> nested) {
  public ParameterSweep {
    assignments = List.copyOf(assignments);
    nested = List.copyOf(nested);
  }

  /** Steps of this sweep alone: the assignments' common value count. */
  public int steps() {
    return assignments.isEmpty() ? 1 : assignments.get(0).values().size();
  }

  /** The tasks this sweep makes, computed without making them (saturates at Long.MAX_VALUE). */
  public long taskCount() {
    long inner = 0;
    for (ParameterSweep n : nested) {
      inner = saturatedAdd(inner, n.taskCount());
    }
    return saturatedMultiply(steps(), nested.isEmpty() ? 1 : inner);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  private static long saturatedMultiply(long a, long b) {
    return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }
}
