package io.gantry.staging;

/**
 * Progress of a stage-in or stage-out. Steps of one group run on several threads, so
 * implementations must be thread-safe; they must also be quick, as they run on staging threads.
 */
public interface StagingListener {
  StagingListener NONE = new StagingListener() {};

  /**
   * A phase starts: group {@code index} (1-based) of {@code count}.
   *
   * @param phase {@code "transfers"} or {@code "sql"}
   * @param groupNumber the plan's ExecutionOrderGroup / ArrangingOrder value
   */
  default void groupStarted(String phase, int index, int count, int groupNumber) {}

  /** Totals so far over the whole plan; called every few thousand rows or megabytes. */
  default void progress(long rowsSoFar, long bytesSoFar) {}

  /**
   * A stage-out step into a database wrote its rows and its ledger row and is about to commit them
   * (the server's fault injection halts here; a listener must not fail).
   *
   * @param step the step's label
   */
  default void committing(String step) {}

  /** A step finished and its output is in place under its final name. */
  default void stepFinished(ManifestRecord record) {}
}
