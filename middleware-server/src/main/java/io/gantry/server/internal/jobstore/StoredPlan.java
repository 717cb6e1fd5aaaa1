package io.gantry.server.internal.jobstore;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a job's plan fixed at submission, kept with the job so that every later read (output, job
 * files, the job page) answers from it and never plans again with the configuration of the day: a
 * data source removed or a user's access withdrawn since does not change where an old job's files
 * are. Holds no secret: a step names its data source or host, never a credential.
 *
 * @param jobDirectory the job's directory on the compute file system
 * @param stdout the program's standard output, relative to {@code jobDirectory}; null for a job
 *     that only stages data
 * @param stderr its standard error, likewise
 * @param steps the staging steps, stage-in first, each phase in plan order
 */
public record StoredPlan(Path jobDirectory, String stdout, String stderr, List<Step> steps) {
  public StoredPlan {
    Objects.requireNonNull(jobDirectory, "jobDirectory");
    if ((stdout == null) != (stderr == null)) {
      throw new IllegalArgumentException(
          "a job that runs a program has both stdout and stderr files");
    }
    steps = List.copyOf(steps == null ? List.of() : steps);
  }

  /** Whether the job runs a program (and so has output files). */
  public boolean runsProgram() {
    return stdout != null;
  }

  /**
   * One staging step as planned.
   *
   * @param phase {@link DataMovement#STAGE_IN} or {@link DataMovement#STAGE_OUT}
   * @param kind {@code sql-extract}, {@code sql-load}, {@code transmit}, {@code receive}, {@code
   *     uri-in}, {@code uri-out}
   * @param order its ExecutionOrderGroup, ArrangingOrder or DataStaging position
   * @param source the data source's name or redacted URL, or the remote side without credentials
   * @param detail the SQL statement or the remote path; may be null
   * @param file the job-relative file it writes (stage-in) or reads (stage-out)
   */
  public record Step(
      String phase, String kind, int order, String source, String detail, String file) {
    public Step {
      if (!DataMovement.STAGE_IN.equals(phase) && !DataMovement.STAGE_OUT.equals(phase)) {
        throw new IllegalArgumentException("phase must be STAGE_IN or STAGE_OUT, was " + phase);
      }
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(file, "file");
    }
  }
}
