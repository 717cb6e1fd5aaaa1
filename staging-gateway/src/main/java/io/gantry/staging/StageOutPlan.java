package io.gantry.staging;

import java.util.List;

/**
 * Everything a job stages out ({@code PostDataStaging} and standard {@code DataStaging} with a
 * Target): SQL loads group by group, then remote transfers in {@code ArrangingOrder}, then the
 * standard URI transfers in document order. The files marked {@code DeleteOnTermination} are
 * removed by {@link StagingGateway#deleteOnTermination} once the job has terminated, whatever its
 * outcome.
 *
 * @param jobId the job's id; with each step's identity it keys the exactly-once ledger
 * @param deleteOnTermination files removed when the job terminates (GFD.56: deleted "after the job
 *     terminates"), successful or not; after stage-out, so a file both staged out and marked is
 *     sent first
 */
public record StageOutPlan(
    String jobId,
    List<SqlLoad> loads,
    List<RemoteTransfer> transfers,
    List<UriTransfer> uriTransfers,
    List<StagedName> deleteOnTermination) {
  public StageOutPlan {
    if (jobId == null || jobId.isBlank() || jobId.length() > 64) {
      throw new IllegalArgumentException("stage-out needs a job id of 1..64 characters");
    }
    loads = List.copyOf(loads == null ? List.of() : loads);
    transfers = List.copyOf(transfers == null ? List.of() : transfers);
    uriTransfers = List.copyOf(uriTransfers == null ? List.of() : uriTransfers);
    deleteOnTermination =
        List.copyOf(deleteOnTermination == null ? List.of() : deleteOnTermination);
  }

  /** A plan without standard DataStaging. */
  public StageOutPlan(String jobId, List<SqlLoad> loads, List<RemoteTransfer> transfers) {
    this(jobId, loads, transfers, List.of(), List.of());
  }
}
