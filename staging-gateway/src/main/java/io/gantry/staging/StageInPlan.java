package io.gantry.staging;

import java.util.List;

/**
 * Everything a job stages in ({@code PreDataStaging}). Remote transfers run first, in
 * {@code ArrangingOrder}, so a query's {@code SQLInputFileName} may be a file fetched by scp;
 * then the SQL extracts run group by group.
 */
public record StageInPlan(List<RemoteTransfer> transfers, List<SqlExtract> extracts) {
  public StageInPlan {
    transfers = List.copyOf(transfers == null ? List.of() : transfers);
    extracts = List.copyOf(extracts == null ? List.of() : extracts);
  }
}
