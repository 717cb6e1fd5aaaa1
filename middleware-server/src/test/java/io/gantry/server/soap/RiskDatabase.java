package io.gantry.server.soap;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A small risk database in an H2 file, which the server reaches as a named data source: jobs
 * stage positions in from it and load their results into {@code job_result}. {@code
 * job_result} has no key on purpose, so a stage-out that ran twice shows as duplicate rows.
 */
public final class RiskDatabase {
  public static final String NAME = "risk";
  public static final int POSITIONS = 25;

  private final String url;

  private RiskDatabase(String url) {
    this.url = url;
  }

  public static RiskDatabase create(Path dir) throws SQLException {
    RiskDatabase db = new RiskDatabase("jdbc:h2:file:" + dir.resolve("risk").toAbsolutePath());
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE position (position_id INT PRIMARY KEY, portfolio VARCHAR(20),"
          + " quantity DECIMAL(18, 4))");
      s.execute("INSERT INTO position SELECT x, 'DESK-' || MOD(x, 3), x * 10.5"
          + " FROM SYSTEM_RANGE(1, " + POSITIONS + ")");
      s.execute("CREATE TABLE job_result (job_id VARCHAR(32) NOT NULL, value_at_risk DECIMAL(18, 4))");
    }
    return db;
  }

  /** The configuration lines that name this database as data source {@link #NAME}. */
  public Map<String, String> dataSourceSettings() {
    return Map.of("datasource." + NAME + ".url", url, "datasource." + NAME + ".user", "sa");
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, "sa", "");
  }

  public long count(String sql) throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** A job that stages positions in, counts them, and loads one result row back. */
  public static TestJobs valuationJob(String name) {
    return TestJobs.job(name)
        .sqlStageIn(NAME, 1, "SELECT position_id, quantity FROM position ORDER BY position_id", "positions.csv")
        .shell(RESULT_SCRIPT, 60)
        .sqlStageOut(NAME, "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)", "result.csv");
  }

  /** Writes result.csv: the job's id and the number of staged positions (header excluded). */
  static final String RESULT_SCRIPT = "n=$(($(wc -l < positions.csv) - 1));"
      + " printf 'job_id,value_at_risk\\n%s,%s\\n' \"$GANTRY_JOB_ID\" \"$n\" > result.csv;"
      + " echo \"valued $n positions\"";
}
