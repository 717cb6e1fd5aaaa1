package io.gantry.staging;

import java.util.Optional;

/**
 * Where earlier jobs' directories are, for {@code gantry-job:JOB/FILE} sources, and how far each
 * job is: the server answers from its job store (each job's stored plan and state). Which jobs a
 * job may read is checked when it is submitted; this only locates them.
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

  /**
   * How far job {@code job} is, asked when a reader of its file has reached the end of what is
   * written so far: a job still running (gx:AfterStart, streaming) may write more. By default every
   * job has SUCCEEDED, so its files are complete.
   */
  default Progress progress(String job) {
    return Progress.SUCCEEDED;
  }

  /**
   * A producing job's progress.
   *
   * @param ended whether it has ended: its files will not grow any more
   * @param succeeded whether it ended SUCCEEDED, the only end that hands its files on
   * @param state its state as the job store names it (e.g. RUNNING, FAILED), for messages
   */
  record Progress(boolean ended, boolean succeeded, String state) {
    /** Ended SUCCEEDED. */
    public static final Progress SUCCEEDED = new Progress(true, true, "SUCCEEDED");
  }
}
