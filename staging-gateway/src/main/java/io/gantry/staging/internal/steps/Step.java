package io.gantry.staging.internal.steps;

import io.gantry.staging.ManifestRecord;
import io.gantry.staging.StagingException;

/** One unit of a plan: a query, a load or a transfer, with the group it belongs to. */
public interface Step {
  int group();

  String label();

  ManifestRecord run(StepContext context) throws StagingException, InterruptedException;
}
