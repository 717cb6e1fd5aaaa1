package io.gantry.staging;

import java.util.Optional;

/**
 * Where earlier jobs' directories are, for {@code gantry-job:JOB/FILE} sources: the server answers
 * from its job store (each job's stored plan). Which jobs a job may read is checked when it is
 * submitted; this only locates them.
 */
@FunctionalInterface
public interface JobOutputs {
  /** None: every {@code gantry-job:} source fails, naming the job. */
  JobOutputs NONE = job -> Optional.empty();

  /**
   * The directory of job {@code job}: an absolute path on the side where job directories lie (this
   * host, or the cluster), or empty when no such job is known.
   */
  Optional<String> directory(String job);
}
