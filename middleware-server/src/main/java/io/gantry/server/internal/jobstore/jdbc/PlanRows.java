package io.gantry.server.internal.jobstore.jdbc;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.StoredPlan;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes and reads a job's {@link StoredPlan} (tables {@code gantry_job_plan} and {@code
 * gantry_job_plan_step}).
 */
public final class PlanRows {
  private PlanRows() {}

  /** Inserts the plan; the caller's transaction commits it (with the job, at submission). */
  public static void insert(Connection c, JobId id, StoredPlan plan, Instant now, int textLimit)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job_plan"
                + " (job_id, job_directory, stdout_file, stderr_file, planned_at) VALUES (?, ?, ?, ?, ?)")) {
      ps.setString(1, id.value());
      ps.setString(2, plan.jobDirectory().toString());
      ps.setString(3, plan.stdout());
      ps.setString(4, plan.stderr());
      JobRows.setInstant(ps, 5, now);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_job_plan_step"
                + " (job_id, phase, seq, kind, step_order, source, detail, file) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      int seq = 0;
      for (StoredPlan.Step s : plan.steps()) {
        ps.setString(1, id.value());
        ps.setString(2, s.phase());
        ps.setInt(3, ++seq);
        ps.setString(4, s.kind());
        ps.setInt(5, s.order());
        ps.setString(6, clip(s.source(), textLimit));
        ps.setString(7, clip(s.detail(), textLimit));
        ps.setString(8, clip(s.file(), textLimit));
        ps.addBatch();
      }
      if (seq > 0) {
        ps.executeBatch();
      }
    }
  }

  /** Whether the job has a stored plan. */
  public static boolean exists(Connection c, JobId id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT 1 FROM gantry_job_plan WHERE job_id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  public static Optional<StoredPlan> read(Connection c, JobId id) throws SQLException {
    Path dir;
    String stdout;
    String stderr;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT job_directory, stdout_file, stderr_file FROM gantry_job_plan WHERE job_id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        dir = Path.of(rs.getString(1));
        stdout = rs.getString(2);
        stderr = rs.getString(3);
      }
    }
    List<StoredPlan.Step> steps = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT phase, kind, step_order, source, detail, file"
                + " FROM gantry_job_plan_step WHERE job_id = ?"
                + " ORDER BY CASE phase WHEN 'STAGE_IN' THEN 0 ELSE 1 END, seq")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          steps.add(
              new StoredPlan.Step(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getInt(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6)));
        }
      }
    }
    return Optional.of(new StoredPlan(dir, stdout, stderr, steps));
  }

  private static String clip(String text, int limit) {
    return text == null || text.length() <= limit ? text : text.substring(0, limit - 3) + "...";
  }
}
