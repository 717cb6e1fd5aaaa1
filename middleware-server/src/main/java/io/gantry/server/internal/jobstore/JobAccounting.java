package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.Owners;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * What jobs used, per user or per project, and the counts quotas are checked against
 * (docs/operations.md, "Accounting and quotas"). A job's core-seconds are its allocated cores times
 * its program's wall time; its staged bytes are those its data movements recorded (steps skipped
 * because they were already done count nothing).
 */
public final class JobAccounting {
  private static final String UNFINISHED =
      "('QUEUED', 'STAGING_IN', 'STAGED', 'RUNNING', 'STAGING_OUT')";

  private final Transactor tx;

  JobAccounting(Transactor tx) {
    this.tx = tx;
  }

  /** What the report groups by. */
  public enum Grouping {
    USER,
    PROJECT
  }

  /**
   * The use of one user or project over the report's period.
   *
   * @param key the user's name, or the project (null: jobs without one)
   * @param jobs jobs that ended in the period, however they ended
   * @param coreSeconds the sum of allocated cores times program wall time
   * @param cpuSeconds the CPU time of those jobs whose backend reported it
   * @param jobsWithCpuTime how many jobs that is
   * @param tasks task-farm tasks
   * @param bytesIn bytes staged in
   * @param bytesOut bytes staged out
   */
  public record Line(
      String key,
      long jobs,
      double coreSeconds,
      double cpuSeconds,
      long jobsWithCpuTime,
      long tasks,
      long bytesIn,
      long bytesOut) {}

  /** One user's or project's jobs now, and the core-seconds used since a given instant. */
  public record Use(long unfinished, long queued, double coreSeconds) {}

  /** Jobs that ended at or after {@code from} and before {@code to}, grouped, ordered by key. */
  public List<Line> report(Instant from, Instant to, Grouping by) {
    String key = by == Grouping.USER ? Owners.presented("gantry_job") : "gantry_job.project";
    String sql =
        "SELECT k, COUNT(*), SUM(core_s), SUM(cpu), COUNT(cpu), SUM(tasks), SUM(b_in), SUM(b_out)"
            + " FROM (SELECT "
            + key
            + " AS k, COALESCE(gantry_job.cores, 0) * COALESCE(gantry_job.program_seconds, 0)"
            + " AS core_s, gantry_job.cpu_seconds AS cpu, COALESCE(gantry_job.farm_tasks, 0)"
            + " AS tasks, "
            + bytes("STAGE_IN")
            + " AS b_in, "
            + bytes("STAGE_OUT")
            + " AS b_out FROM gantry_job WHERE gantry_job.finished_at >= ?"
            + " AND gantry_job.finished_at < ?) t GROUP BY k ORDER BY k";
    return tx.read(
        "read the accounting report",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            JobRows.setInstant(ps, 1, from);
            JobRows.setInstant(ps, 2, to);
            List<Line> lines = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                lines.add(
                    new Line(
                        rs.getString(1),
                        rs.getLong(2),
                        rs.getDouble(3),
                        rs.getDouble(4),
                        rs.getLong(5),
                        rs.getLong(6),
                        rs.getLong(7),
                        rs.getLong(8)));
              }
            }
            return lines;
          }
        });
  }

  private static String bytes(String phase) {
    return "(SELECT COALESCE(SUM(m.bytes), 0) FROM gantry_data_movement m WHERE m.job_id ="
        + " gantry_job.id AND m.phase = '"
        + phase
        + "' AND m.skipped = FALSE)";
  }

  /** The user's jobs now, and the core-seconds of their programs since {@code since}. */
  public Use ofUser(String user, Instant since, Instant now) {
    return use(Owners.ownedByNamed("gantry_job"), List.of(user, user), since, now);
  }

  /** The project's jobs now, and the core-seconds of their programs since {@code since}. */
  public Use ofProject(String project, Instant since, Instant now) {
    return use("gantry_job.project = ?", List.of(project), since, now);
  }

  /**
   * Counts and core-seconds where {@code condition} holds: programs that ended since {@code since}
   * (a job still staging out has ended its program), plus running ones for their time so far.
   */
  private Use use(String condition, List<String> params, Instant since, Instant now) {
    String sql =
        "SELECT gantry_job.state, gantry_job.cores, gantry_job.program_seconds,"
            + " gantry_job.started_at FROM gantry_job WHERE "
            + condition
            + " AND (gantry_job.state IN "
            + UNFINISHED
            + " OR gantry_job.finished_at >= ?)";
    return tx.read(
        "read quota use",
        c -> {
          try (PreparedStatement ps = prepared(c, sql, params, since)) {
            long unfinished = 0;
            long queued = 0;
            double coreSeconds = 0;
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                JobState state = JobState.valueOf(rs.getString(1));
                int cores = rs.getInt(2);
                double program = rs.getDouble(3);
                boolean ended = !rs.wasNull();
                OffsetDateTime started = rs.getObject(4, OffsetDateTime.class);
                unfinished += state.isFinal() ? 0 : 1;
                queued += state == JobState.QUEUED ? 1 : 0;
                if (ended) {
                  coreSeconds += cores * program;
                } else if (state == JobState.RUNNING && started != null) {
                  Instant from = started.toInstant().isBefore(since) ? since : started.toInstant();
                  coreSeconds += cores * Math.max(0, Duration.between(from, now).toMillis()) / 1e3;
                }
              }
            }
            return new Use(unfinished, queued, coreSeconds);
          }
        });
  }

  private static PreparedStatement prepared(
      Connection c, String sql, List<String> params, Instant since) throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    for (int i = 0; i < params.size(); i++) {
      ps.setString(i + 1, params.get(i));
    }
    JobRows.setInstant(ps, params.size() + 1, since);
    return ps;
  }
}
