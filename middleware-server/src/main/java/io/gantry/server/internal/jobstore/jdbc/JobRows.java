package io.gantry.server.internal.jobstore.jdbc;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobTransition;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Maps rows of the job tables to records and instants to SQL values, the same on H2 and PostgreSQL.
 */
public final class JobRows {
  /** The columns of a job record from {@code gantry_job}; the owner as {@link Owners} says. */
  public static final String JOB_COLUMNS =
      "seq, id, "
          + Owners.presented("gantry_job")
          + " AS owner, name, state, submitted_at, started_at, finished_at, exit_code,"
          + " failure_reason, phase_detail, farm_failed_tasks";

  private JobRows() {}

  public static JobRecord job(ResultSet rs) throws SQLException {
    int exit = rs.getInt("exit_code");
    Integer exitCode = rs.wasNull() ? null : exit;
    int failed = rs.getInt("farm_failed_tasks");
    Integer failedTasks = rs.wasNull() ? null : failed;
    return new JobRecord(
        new JobId(rs.getString("id")),
        rs.getLong("seq"),
        rs.getString("owner"),
        rs.getString("name"),
        JobState.valueOf(rs.getString("state")),
        instant(rs, "submitted_at"),
        instant(rs, "started_at"),
        instant(rs, "finished_at"),
        exitCode,
        rs.getString("failure_reason"),
        rs.getString("phase_detail"),
        failedTasks);
  }

  public static JobTransition transition(ResultSet rs) throws SQLException {
    String from = rs.getString("from_state");
    return new JobTransition(
        new JobId(rs.getString("job_id")),
        rs.getInt("seq"),
        from == null ? null : JobState.valueOf(from),
        JobState.valueOf(rs.getString("to_state")),
        instant(rs, "occurred_at"),
        rs.getString("reason"));
  }

  /**
   * Binds an instant as a UTC TIMESTAMP WITH TIME ZONE (JDBC 4.2), which both drivers map exactly.
   */
  public static void setInstant(PreparedStatement ps, int index, Instant value)
      throws SQLException {
    ps.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
