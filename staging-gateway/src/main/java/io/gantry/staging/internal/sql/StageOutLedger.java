package io.gantry.staging.internal.sql;

import io.gantry.staging.StageOutLedgerDdl;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Makes stage-out exactly-once: a table in the target database, {@code
 * gantry_stage_out_ledger(job_id, step_key, file_checksum, row_count, committed_at)}, gets one row
 * per committed step, inserted in the same transaction as the step's rows. Running the same step of
 * the same job again finds the row and skips the step, even if the server crashed between the
 * database commit and its own record of it. The primary key on (job_id, step_key) also stops two
 * concurrent runs: the second one's commit fails and rolls back.
 */
final class StageOutLedger {
  static final String TABLE = StageOutLedgerDdl.TABLE;

  private StageOutLedger() {}

  /**
   * Creates the ledger table if missing, in its own transaction. A table a DBA created (and
   * granted) is used as it is: its user needs no right to create tables.
   */
  static void ensureTable(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(true); // a failed probe must not abort a transaction (PostgreSQL)
    try (Statement s = c.createStatement()) {
      if (exists(c)) {
        return;
      }
      s.execute(StageOutLedgerDdl.CREATE_TABLE);
    } catch (SQLException e) {
      // another step may have created it at the same moment; that is fine if it exists now
      if (!exists(c)) {
        throw new SQLException(
            StageOutLedgerDdl.missingMessage(e.getMessage()), e.getSQLState(), e);
      }
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  private static boolean exists(Connection c) {
    try (Statement s = c.createStatement()) {
      s.executeQuery("SELECT 1 FROM " + TABLE + " WHERE 1 = 0").close();
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** The committed entry's checksum and rows, or null if the step has not been committed. */
  static Entry find(Connection c, String jobId, String stepKey) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT file_checksum, row_count FROM "
                + TABLE
                + " WHERE job_id = ? AND step_key = ?")) {
      ps.setString(1, jobId);
      ps.setString(2, stepKey);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new Entry(rs.getString(1), rs.getLong(2)) : null;
      }
    }
  }

  static void record(Connection c, String jobId, String stepKey, String checksum, long rows)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + TABLE
                + " (job_id, step_key, file_checksum, row_count, committed_at) VALUES (?, ?, ?, ?, ?)")) {
      ps.setString(1, jobId);
      ps.setString(2, stepKey);
      ps.setString(3, checksum);
      ps.setLong(4, rows);
      ps.setTimestamp(5, Timestamp.from(Instant.now()));
      ps.executeUpdate();
    }
  }

  record Entry(String checksum, long rows) {}
}
