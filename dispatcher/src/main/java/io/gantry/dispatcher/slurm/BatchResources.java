package io.gantry.dispatcher.slurm;

import java.util.regex.Pattern;

/**
 * What a job asks of the batch system beyond its process count and wall time (those are in the
 * {@link io.gantry.dispatcher.LaunchSpec}). Every field is optional (null or false: Slurm's own
 * default).
 *
 * @param tasksPerNode {@code --ntasks-per-node} (JSDL ProcessesPerHost)
 * @param memoryPerNodeMb {@code --mem}, in megabytes per node
 * @param exclusive {@code --exclusive}: no other job shares the job's nodes
 * @param partition {@code --partition}
 * @param account {@code --account}, the Slurm account the job is charged to
 */
public record BatchResources(
    Integer tasksPerNode,
    Long memoryPerNodeMb,
    boolean exclusive,
    String partition,
    String account) {

  /** Slurm's own names are plain words; anything else is refused with a message, not passed on. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  public BatchResources {
    if (tasksPerNode != null && tasksPerNode < 1) {
      throw new IllegalArgumentException(
          "processes per host must be at least 1, was " + tasksPerNode);
    }
    if (memoryPerNodeMb != null && memoryPerNodeMb < 1) {
      throw new IllegalArgumentException("memory must be at least 1 MB, was " + memoryPerNodeMb);
    }
    checkName("partition", partition);
    checkName("account", account);
  }

  public static BatchResources none() {
    return new BatchResources(null, null, false, null, null);
  }

  private static void checkName(String what, String value) {
    if (value != null && !NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "Slurm "
              + what
              + " '"
              + value
              + "' is not a plain name (letters, digits, '_', '.', '-'; at most 64)");
    }
  }
}
