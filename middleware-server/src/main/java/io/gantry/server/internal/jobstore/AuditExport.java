package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.io.PrintWriter;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * The audit trail (every job's submission and changes of state) as JSON lines for a log collector
 * ({@code gantry-server audit export}; docs/operations.md, "Logs"): one object per entry, oldest
 * first, with the job's id, owner and name, the entry's number, states, time and reason.
 */
public final class AuditExport {
  private final Transactor tx;

  AuditExport(Transactor tx) {
    this.tx = tx;
  }

  /** Writes every entry at or after {@code since}; returns how many. */
  public long writeJsonLines(Instant since, PrintWriter out) {
    return tx.read(
        "export the audit trail",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT t.job_id, j.owner, j.name, t.seq, t.from_state, t.to_state,"
                      + " t.occurred_at, t.reason FROM gantry_job_transition t"
                      + " JOIN gantry_job j ON j.id = t.job_id WHERE t.occurred_at >= ?"
                      + " ORDER BY t.occurred_at, t.job_id, t.seq")) {
            JobRows.setInstant(ps, 1, since);
            long count = 0;
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.println(
                    new JsonObject()
                        .put("jobId", rs.getString(1))
                        .put("user", rs.getString(2))
                        .put("name", rs.getString(3))
                        .put("seq", rs.getLong(4))
                        .put("from", rs.getString(5))
                        .put("to", rs.getString(6))
                        .put("at", rs.getObject(7, OffsetDateTime.class).toInstant().toString())
                        .put("reason", rs.getString(8)));
                count++;
              }
            }
            out.flush();
            return count;
          }
        });
  }
}
