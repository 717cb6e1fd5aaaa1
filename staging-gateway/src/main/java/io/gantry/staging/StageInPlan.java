package io.gantry.staging;

import java.util.List;

/**
 * Everything a job stages in ({@code PreDataStaging} and standard {@code DataStaging} with a
 * Source). Remote transfers run first, in {@code ArrangingOrder}, then the standard URI transfers
 * in document order, so a query's {@code SQLInputFileName} may be a file fetched by either; then
 * the SQL extracts run group by group.
 */
public record StageInPlan(
    List<RemoteTransfer> transfers, List<SqlExtract> extracts, List<UriTransfer> uriTransfers) {
  public StageInPlan {
    transfers = List.copyOf(transfers == null ? List.of() : transfers);
    extracts = List.copyOf(extracts == null ? List.of() : extracts);
    uriTransfers = List.copyOf(uriTransfers == null ? List.of() : uriTransfers);
  }

  /** A plan without standard DataStaging. */
  public StageInPlan(List<RemoteTransfer> transfers, List<SqlExtract> extracts) {
    this(transfers, extracts, List.of());
  }
}
