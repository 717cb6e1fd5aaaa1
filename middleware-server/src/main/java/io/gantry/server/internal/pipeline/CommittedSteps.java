package io.gantry.server.internal.pipeline;

import io.gantry.staging.ManifestRecord;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The sentence a failed stage-out ends with: which of its steps had already committed. A database
 * keeps what an earlier group committed, so the user must know what is in their tables now (and
 * that running the stage-out again skips those steps, by the ledger).
 */
final class CommittedSteps {
  private CommittedSteps() {}

  static String describe(List<ManifestRecord> committed) {
    if (committed.isEmpty()) {
      return "no stage-out step had committed";
    }
    return committed.size()
        + " stage-out step(s) had committed before the failure and stay committed: "
        + committed.stream().map(CommittedSteps::step).collect(Collectors.joining(", "));
  }

  private static String step(ManifestRecord r) {
    String what = r.kind() + " " + r.file() + (r.source() == null ? "" : " to " + r.source());
    return r.rows() >= 0 ? what + " (" + r.rows() + " rows)" : what;
  }
}
