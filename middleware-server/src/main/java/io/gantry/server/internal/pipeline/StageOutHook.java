package io.gantry.server.internal.pipeline;

import io.gantry.server.internal.jobstore.JobId;

/**
 * What follows a job's stage-out that loaded rows into a database, once every step committed and
 * before the job is recorded SUCCEEDED: the VaR limit-breach events (docs/risk-view.md, "Limits").
 * A stage-out done again after a crash calls it again, so it must be idempotent; what it throws is
 * logged and does not change the job's outcome.
 */
@FunctionalInterface
public interface StageOutHook {
  void loaded(JobId job, String owner);

  /** Nothing follows. */
  static StageOutHook none() {
    return (job, owner) -> {};
  }
}
