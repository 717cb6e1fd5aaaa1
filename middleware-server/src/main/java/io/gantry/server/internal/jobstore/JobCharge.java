package io.gantry.server.internal.jobstore;

/**
 * What a job is charged to and for, fixed at submission: its project and the cores it is allocated
 * (docs/operations.md, "Accounting and quotas").
 *
 * @param project the job's project (JSDL JobIdentification/JobProject), or null for none
 * @param cores the compute cores the job is allocated, 0 for a job that only stages data
 */
public record JobCharge(String project, int cores) {
  /** A job stored without a charge: no project, no cores. */
  public static final JobCharge NONE = new JobCharge(null, 0);

  public JobCharge {
    if (cores < 0) {
      throw new IllegalArgumentException("cores < 0: " + cores);
    }
    if (project != null && (project.isBlank() || project.length() > 255)) {
      throw new IllegalArgumentException("a project has 1 to 255 characters");
    }
  }
}
