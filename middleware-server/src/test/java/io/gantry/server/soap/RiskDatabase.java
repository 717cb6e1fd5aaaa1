package io.gantry.server.soap;

import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.H2TcpServer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small risk database, which the server reaches as a named data source: jobs stage positions in
 * from it and load their results into {@code job_result}. {@code job_result} has no key on purpose,
 * so a stage-out that ran twice shows as duplicate rows.
 */
public final class RiskDatabase {
  public static final String NAME = "risk";
  public static final int POSITIONS = 25;

  private final String url;
  private final String user;

  private RiskDatabase(String url, String user) {
    this.url = url;
    this.user = user;
  }

  private static final AtomicInteger H2_DATABASES = new AtomicInteger();
  private static H2TcpServer h2Server;

  /**
   * In an H2 file served over TCP from the test's JVM: the Gantry server is a process of its own,
   * and H2 lets one process at a time open a file, while the test reads the results too. Its
   * queries can call {@code AWAIT_FILE(path)}, which runs here and holds a stage-in until the test
   * creates the file. {@code dir} is unused: the databases live under the shared H2 server's own
   * temporary directory, one per call.
   */
  public static RiskDatabase h2File(Path dir) throws SQLException {
    String url = h2Server().jdbcUrl(NAME + "-" + H2_DATABASES.incrementAndGet());
    RiskDatabase db = create(new RiskDatabase(url, "sa"));
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE ALIAS AWAIT_FILE FOR '" + RiskDatabase.class.getName() + ".awaitFile'");
    }
    return db;
  }

  /** One H2 server for the risk databases of a test JVM, stopped when the JVM ends. */
  private static synchronized H2TcpServer h2Server() {
    if (h2Server == null) {
      try {
        h2Server = H2TcpServer.start(Files.createTempDirectory("risk-databases"));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      H2TcpServer started = h2Server;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "risk-databases-stop"));
    }
    return h2Server;
  }

  /** A query holding on {@code AWAIT_FILE(release)}: its stage-in lasts until the file exists. */
  public static String positionsQueryHeldUntil(Path release) {
    return "SELECT position_id, quantity FROM position WHERE AWAIT_FILE('" + release + "') = 1";
  }

  /** Runs inside H2 for {@code AWAIT_FILE}: waits up to 30 s for the file; 1 once it exists. */
  public static int awaitFile(String path) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!Files.exists(Path.of(path)) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return 1;
  }

  /**
   * In a database of a real PostgreSQL server: a process of its own, like a bank's risk database,
   * so it keeps what it committed when the Gantry server is killed.
   */
  public static RiskDatabase postgres(EmbeddedPostgresServer server) throws SQLException {
    return create(new RiskDatabase(server.jdbcUrl(server.createDatabase()), server.user()));
  }

  private static RiskDatabase create(RiskDatabase db) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE position (position_id INT PRIMARY KEY, portfolio VARCHAR(20),"
              + " quantity DECIMAL(18, 4))");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO position VALUES (?, ?, ?)")) {
        for (int i = 1; i <= POSITIONS; i++) {
          ps.setInt(1, i);
          ps.setString(2, "DESK-" + i % 3);
          ps.setBigDecimal(3, BigDecimal.valueOf(i * 105L, 1));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      s.execute(
          "CREATE TABLE job_result (job_id VARCHAR(32) NOT NULL, value_at_risk DECIMAL(18, 4))");
    }
    return db;
  }

  /** The configuration lines that name this database as data source {@link #NAME}. */
  /**
   * The server settings for this database; the test functions its queries call (AWAIT_FILE,
   * pg_sleep) are off the allow-list of staging SQL, so they are allowed here explicitly.
   */
  public Map<String, String> dataSourceSettings() {
    return Map.of(
        "datasource." + NAME + ".url",
        url,
        "datasource." + NAME + ".user",
        user,
        "staging.sql-functions",
        "await_file pg_sleep");
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, "");
  }

  public long count(String sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** A job that stages positions in, counts them, and loads one result row back. */
  public static TestJobs valuationJob(String name) {
    return valuationJob(name, "SELECT position_id, quantity FROM position ORDER BY position_id");
  }

  /** The same, staging positions in with {@code positionsQuery}. */
  public static TestJobs valuationJob(String name, String positionsQuery) {
    return TestJobs.job(name)
        .sqlStageIn(NAME, 1, positionsQuery, "positions.csv")
        .shell(RESULT_SCRIPT, 60)
        .sqlStageOut(
            NAME, "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)", "result.csv");
  }

  /** Writes result.csv: the job's id and the number of staged positions (header excluded). */
  static final String RESULT_SCRIPT =
      "n=$(($(wc -l < positions.csv) - 1));"
          + " printf 'job_id,value_at_risk\\n%s,%s\\n' \"$GANTRY_JOB_ID\" \"$n\" > result.csv;"
          + " echo \"valued $n positions\"";
}
