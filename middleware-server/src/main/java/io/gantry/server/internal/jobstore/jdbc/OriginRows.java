package io.gantry.server.internal.jobstore.jdbc;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A job's {@link JobOrigin}: tables {@code gantry_job_parameter} and {@code gantry_job_origin}. */
public final class OriginRows {
  private OriginRows() {}

  public static void insert(Connection c, JobId id, JobOrigin origin) throws SQLException {
    ParameterRows.insert(c, "gantry_job_parameter", "job_id", id.value(), origin.parameters());
    if (origin.resubmittedFrom() == null && origin.scheduleId() == null) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job_origin (job_id, resubmitted_from, schedule_id, schedule_name,"
                + " scheduled_for, failed_tasks_only) VALUES (?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, id.value());
      ps.setString(2, origin.resubmittedFrom() == null ? null : origin.resubmittedFrom().value());
      ps.setString(3, origin.scheduleId());
      ps.setString(4, origin.scheduleName());
      if (origin.scheduledFor() == null) {
        ps.setNull(5, java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
      } else {
        JobRows.setInstant(ps, 5, origin.scheduledFor());
      }
      ps.setBoolean(6, origin.failedTasksOnly());
      ps.executeUpdate();
    }
  }

  public static JobOrigin read(Connection c, JobId id) throws SQLException {
    Map<String, String> parameters =
        ParameterRows.read(c, "gantry_job_parameter", "job_id", id.value());
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT resubmitted_from, schedule_id, schedule_name, scheduled_for,"
                + " failed_tasks_only FROM gantry_job_origin WHERE job_id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return JobOrigin.submitted(parameters);
        }
        String from = rs.getString(1);
        OffsetDateTime at = rs.getObject(4, OffsetDateTime.class);
        return new JobOrigin(
            parameters,
            from == null ? null : JobId.parse(from),
            rs.getString(2),
            rs.getString(3),
            at == null ? null : at.toInstant(),
            rs.getBoolean(5));
      }
    }
  }

  /**
   * The template values of each of {@code ids} that has any, in the template's order: one query for
   * a page of a job list (at most {@code JobQuery.MAX_LIMIT} ids).
   */
  public static Map<JobId, Map<String, String>> parameters(Connection c, List<JobId> ids)
      throws SQLException {
    Map<JobId, Map<String, String>> values = new java.util.HashMap<>();
    if (ids.isEmpty()) {
      return values;
    }
    String marks = String.join(", ", java.util.Collections.nCopies(ids.size(), "?"));
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT job_id, param_name, param_value FROM gantry_job_parameter WHERE job_id IN ("
                + marks
                + ") ORDER BY job_id, seq")) {
      for (int i = 0; i < ids.size(); i++) {
        ps.setString(i + 1, ids.get(i).value());
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          values
              .computeIfAbsent(JobId.parse(rs.getString(1)), id -> new LinkedHashMap<>())
              .put(rs.getString(2), rs.getString(3));
        }
      }
    }
    return values;
  }

  /** Name-value rows of one owner (a job or a schedule), in their order. */
  public static final class ParameterRows {
    private ParameterRows() {}

    public static void insert(
        Connection c, String table, String key, String owner, Map<String, String> values)
        throws SQLException {
      if (values.isEmpty()) {
        return;
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO "
                  + table
                  + " ("
                  + key
                  + ", seq, param_name, param_value) VALUES (?, ?, ?, ?)")) {
        int seq = 0;
        for (Map.Entry<String, String> e : values.entrySet()) {
          ps.setString(1, owner);
          ps.setInt(2, ++seq);
          ps.setString(3, e.getKey());
          ps.setString(4, e.getValue());
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }

    public static Map<String, String> read(Connection c, String table, String key, String owner)
        throws SQLException {
      Map<String, String> values = new LinkedHashMap<>();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT param_name, param_value FROM "
                  + table
                  + " WHERE "
                  + key
                  + " = ? ORDER BY seq")) {
        ps.setString(1, owner);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            values.put(rs.getString(1), rs.getString(2));
          }
        }
      }
      return values;
    }
  }
}
