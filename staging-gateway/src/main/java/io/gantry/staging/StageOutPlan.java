package io.gantry.staging;

import java.util.List;

/**
 * Everything a job stages out ({@code PostDataStaging}): SQL loads group by group, then remote
 * transfers in {@code ArrangingOrder}.
 *
 * @param jobId the job's id; with each step's identity it keys the exactly-once ledger
 */
public record StageOutPlan(String jobId, List<SqlLoad> loads, List<RemoteTransfer> transfers) {
  public StageOutPlan {
    if (jobId == null || jobId.isBlank() || jobId.length() > 64) {
      throw new IllegalArgumentException("stage-out needs a job id of 1..64 characters");
    }
    loads = List.copyOf(loads == null ? List.of() : loads);
    transfers = List.copyOf(transfers == null ? List.of() : transfers);
  }
}
