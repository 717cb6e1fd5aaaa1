package io.gantry.server.internal.jobstore;

/**
 * What a job's program used, recorded when it ended (docs/operations.md, "Accounting and quotas").
 *
 * @param wallSeconds the program's wall time, from its start to its end
 * @param cpuSeconds user plus system CPU time of its processes, or null where the backend does not
 *     report it
 * @param tasks for a task farm, how many tasks it had; null for any other job
 */
public record ProgramUsage(double wallSeconds, Double cpuSeconds, Integer tasks) {
  public ProgramUsage {
    if (wallSeconds < 0 || (cpuSeconds != null && cpuSeconds < 0)) {
      throw new IllegalArgumentException("a usage is never negative");
    }
  }
}
