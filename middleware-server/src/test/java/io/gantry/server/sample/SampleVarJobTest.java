package io.gantry.server.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl) end to end on a real server: SQL stage-in
 * in two groups with parameter binding, scp from the demo SSH host, mcvar on 2 ranks through the
 * real mpirun, stage-out of the run, its inputs' checksums and every node's results into the demo
 * database; a resubmission for an old business date takes that date's book, closes and history; an
 * intraday re-run sees a new trade and a moved close (nothing is cached).
 */
class SampleVarJobTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");

  private static final String ADMIN_PASSWORD = "the sample's admin password";
  @TempDir Path dir;
  private Path dataDir;
  private GantryTestServerBuilder builder;
  private GantryTestServer server;
  private JobManagement client;

  @BeforeEach
  void startServer() throws Exception {
    dataDir = dir.resolve("server");
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    // On the defaults, TLS and accounts included: the first administrator's password is configured.
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    builder =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .secure()
            .demo(300)
            .settings(
                Map.ofEntries(
                    Map.entry("admin.password-file", adminPassword.toString()),
                    // mcvar runs inside the job's sandbox, which shows it only from an allowed root
                    // (and, as with bin/gantry-server and scripts/run-sample, the server offers its
                    // built-in
                    // mcvar application found there to the named form, var-job-named.jsdl)
                    Map.entry("jobs.allowed-executable-roots", MCVAR.getParent().toString())));
    start();
  }

  /** Starts the server on this test's data directory (again, after a stop). */
  private void start() throws Exception {
    server = builder.start();
    client = JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  /** The example as shipped, pointed at this test's demo SSH port and the built mcvar. */
  private Element sampleJob() throws Exception {
    String xml =
        Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
            .replace(
                "<gx:RemotePort>2222</gx:RemotePort>",
                "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
            .replace(
                "<gx:Executable>mcvar</gx:Executable>",
                "<gx:Executable>" + MCVAR + "</gx:Executable>");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder()
        .parse(new InputSource(new StringReader(xml)))
        .getDocumentElement();
  }

  @Test
  void theNamedSampleRunsTheServersBuiltInMcvarWithTheFiguresOfTheDescribedSample()
      throws Exception {
    String xml = Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job-named.jsdl"));
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Element job =
        f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
    assertEquals(
        List.of("mcvar 1.0 mpirun 2"),
        client.getServerInfo().applications.stream()
            .filter(a -> a.name.equals("mcvar"))
            .map(a -> a.name + " " + a.version + " " + a.kind + " " + a.processes)
            .toList(),
        "the built-in mcvar, found in the allowed executable roots");
    String named = client.submitJob(new JobDocument(job));
    JobStatusInfo status = awaitEnd(named, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    assertEquals(RESULT_FILES, client.getJobResults(named).stagedOut.size());
    String described = client.submitJob(new JobDocument(sampleJob()));
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(described, Duration.ofMinutes(3)).state);
    server.close(); // the demo database is a file of the server's, which H2 opens in one process
    try (Connection c = demoDatabase()) {
      assertEquals(
          50000,
          scalar(
              c,
              "select sum(count) from var_node_pnl_distribution where run_id = ? and node = 'BANK'",
              named));
      assertEquals(
          summary(c, described),
          summary(c, named),
          "scripts/run-sample prints the README's figures");
    }
  }

  /** The stage-out files of the sample: every mcvar result file but node_pnl.csv.gz. */
  private static final int RESULT_FILES = 8;

  /** The var_node_summary rows of a run, rounded as scripts/run-sample prints them. */
  private static List<String> summary(Connection c, String jobId) throws Exception {
    List<String> rows = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select node, confidence, cast(var as decimal(20, 2)),"
                + " cast(expected_shortfall as decimal(20, 2)), scenarios from var_node_summary"
                + " where run_id = ? order by node, confidence")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              rs.getString(1)
                  + " | "
                  + rs.getString(2)
                  + " | "
                  + rs.getString(3)
                  + " | "
                  + rs.getString(4)
                  + " | "
                  + rs.getString(5));
        }
      }
    }
    assertTrue(rows.size() >= 2 * 9, rows.toString());
    return rows;
  }

  @Test
  void sampleJobStagesComputesAndWritesTheRunAndEveryNodesVarBackIntoSql() throws Exception {
    String jobId = client.submitJob(new JobDocument(sampleJob()));
    JobStatusInfo status = awaitEnd(jobId, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    assertEquals(0, status.exitCode);

    JobResults results = client.getJobResults(jobId);
    assertEquals(6, results.stagedIn.size(), "five SQL extracts and one scp transfer");
    Map<String, StagedFileInfo> in = byTarget(results.stagedIn);
    assertTrue(in.get("positions.csv.gz").checksum.startsWith("sha256:"));
    assertEquals(RESULT_FILES, results.stagedOut.size());
    server.close(); // the demo database is a file of the server's, which H2 opens in one process

    try (Connection c = demoDatabase()) {
      assertEquals(
          (long) scalar(c, "select count(*) from position where business_date = ?", "2026-11-20"),
          in.get("positions.csv.gz").rows,
          "the whole bank's book of the business date");
      // the run and its context
      try (PreparedStatement ps =
          c.prepareStatement(
              "select cast(business_date as varchar), method, horizon_days, scenarios, seed,"
                  + " lookback_days, base_currency, confidence_levels, program_version"
                  + " from var_run where run_id = ?")) {
        ps.setString(1, jobId);
        try (ResultSet rs = ps.executeQuery()) {
          assertTrue(rs.next(), "the run's row");
          assertEquals("2026-11-20", rs.getString(1));
          assertEquals("mc-normal", rs.getString(2));
          assertEquals(1, rs.getInt(3));
          assertEquals(50000, rs.getLong(4));
          assertEquals(20261122L, rs.getLong(5));
          assertEquals(250, rs.getInt(6));
          assertEquals("USD", rs.getString(7));
          assertEquals("0.95;0.99", rs.getString(8));
          assertTrue(rs.getString(9).startsWith("mcvar "), rs.getString(9));
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "select input, sha256 from var_run_input where run_id = ? order by input")) {
        ps.setString(1, jobId);
        try (ResultSet rs = ps.executeQuery()) {
          List<String> inputs = new java.util.ArrayList<>();
          while (rs.next()) {
            inputs.add(rs.getString(1));
            assertTrue(rs.getString(2).matches("[0-9a-f]{64}"), rs.getString(2));
          }
          assertEquals(List.of("factors", "history", "params", "positions"), inputs);
        }
      }
      // every node of the hierarchy, on the same scenarios
      assertEquals(
          scalar(c, "select count(*) from hierarchy_node where node <> ?", "") * 2,
          scalar(c, "select count(*) from var_node_summary where run_id = ?", jobId),
          "every node at both confidence levels");
      assertEquals(
          0,
          scalar(
              c,
              "select count(*) from var_node_summary where run_id = ?"
                  + " and business_date <> date '2026-11-20'",
              jobId));
      double var99 =
          scalar(
              c,
              "select var from var_node_summary where run_id = ? and node = 'BANK'"
                  + " and confidence = 0.99",
              jobId);
      double var95 =
          scalar(
              c,
              "select var from var_node_summary where run_id = ? and node = 'BANK'"
                  + " and confidence = 0.95",
              jobId);
      assertTrue(var99 > var95 && var95 > 0, "VaR grows with confidence: " + var95 + " " + var99);
      double desks =
          scalar(
              c,
              "select sum(s.var) from var_node_summary s join hierarchy_node n on n.node = s.node"
                  + " where s.run_id = ? and n.node_kind = 'desk' and s.confidence = 0.99",
              jobId);
      assertTrue(desks > var99, "diversification: the desks' VaRs add up to more than the bank's");
      assertEquals(
          var99,
          scalar(
              c,
              "select sum(var_contribution) from var_node_contribution"
                  + " where run_id = ? and node = 'BANK' and confidence = 0.99",
              jobId),
          Math.abs(var99) * 1e-6,
          "the legal entities' Euler contributions add up to the bank's VaR");
      assertEquals(
          var99,
          scalar(
              c,
              "select sum(var_contribution) from var_position_contribution"
                  + " where run_id = ? and node = 'BANK' and confidence = 0.99",
              jobId),
          Math.abs(var99) * 1e-6,
          "the positions' Euler contributions add up to the bank's VaR");
      assertEquals(
          50000,
          scalar(
              c,
              "select sum(count) from var_node_pnl_distribution where run_id = ?"
                  + " and node = 'BANK/GANTRY-EU/EQUITIES/EQ-JP'",
              jobId));
    }
  }

  /**
   * What a regulator asks ("reproduce the VaR of that day"): the stored job, run again, gives the
   * same inputs (their checksums) and every result row again, to the last digit; only the run id
   * differs.
   */
  @Test
  void aResubmittedJobReproducesEveryResultRowButItsRunId() throws Exception {
    String first = client.submitJob(new JobDocument(sampleJob()));
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(first, Duration.ofMinutes(3)).state);
    String again = client.resubmitJob(first, List.of());
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(again, Duration.ofMinutes(3)).state);
    server.close(); // the demo database is a file of the server's, which H2 opens in one process
    try (Connection c = demoDatabase()) {
      for (String table :
          List.of(
              "var_run",
              "var_run_input",
              "var_node_summary",
              "var_node_pnl_distribution",
              "var_position_contribution",
              "var_node_contribution")) {
        List<String> rows = rowsWithoutRunId(c, table, first);
        assertTrue(!rows.isEmpty(), table);
        assertEquals(rows, rowsWithoutRunId(c, table, again), table);
      }
    }
  }

  /** Every column of {@code table}'s rows of a run but run_id, in a stable order. */
  private static List<String> rowsWithoutRunId(Connection c, String table, String runId)
      throws Exception {
    List<String> rows = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement("select * from " + table + " where run_id = ?")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= columns; i++) {
            if (!rs.getMetaData().getColumnName(i).equalsIgnoreCase("run_id")) {
              row.append(rs.getString(i)).append('|');
            }
          }
          rows.add(row.toString());
        }
      }
    }
    java.util.Collections.sort(rows);
    return rows;
  }

  @Test
  void aResubmissionForAnOldDateUsesThatDatesBookLevelsAndHistory() throws Exception {
    String today = client.submitJob(new JobDocument(sampleJob()));
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(today, Duration.ofMinutes(3)).state);
    String old =
        client.submitJob(
            new JobDocument(
                sampleJob(),
                List.of(new io.gantry.server.api.ParameterValue("business_date", "2026-11-12"))));
    JobStatusInfo status = awaitEnd(old, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    Map<String, StagedFileInfo> before = byTarget(client.getJobResults(today).stagedIn);
    Map<String, StagedFileInfo> after = byTarget(client.getJobResults(old).stagedIn);
    server.close();
    try (Connection c = demoDatabase()) {
      assertEquals(
          (long) scalar(c, "select count(*) from position where business_date = ?", "2026-11-12"),
          after.get("positions.csv.gz").rows,
          "that date's book");
      long factors = after.get("factors.csv.gz").rows;
      assertEquals(
          factors
              * (long)
                  scalar(
                      c,
                      "select count(distinct as_of) from factor_history where as_of <= ?",
                      "2026-11-12"),
          after.get("history.csv.gz").rows,
          "the history up to that date, not beyond");
      assertEquals(
          "2026-11-12",
          text(c, "select cast(business_date as varchar) from var_run where run_id = ?", old));
      assertEquals(
          0,
          scalar(
              c,
              "select count(*) from var_node_summary where run_id = ?"
                  + " and business_date <> date '2026-11-12'",
              old));
      assertTrue(
          scalar(
                  c,
                  "select var from var_node_summary where run_id = ? and node = 'BANK' and confidence = 0.99",
                  old)
              != scalar(
                  c,
                  "select var from var_node_summary where run_id = ? and node = 'BANK' and confidence = 0.99",
                  today),
          "another date, another VaR");
      assertTrue(
          !before.get("factors.csv.gz").checksum.equals(after.get("factors.csv.gz").checksum),
          "that date's closes");
    }
  }

  @Test
  void anIntradayReRunSeesANewTradeAndAMovedCloseNothingIsCached() throws Exception {
    String first = client.submitJob(new JobDocument(sampleJob()));
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(first, Duration.ofMinutes(3)).state);
    Map<String, StagedFileInfo> before = byTarget(client.getJobResults(first).stagedIn);
    server.close(); // the demo database is a file of the server's, which H2 opens in one process
    try (Connection c = demoDatabase();
        java.sql.Statement s = c.createStatement()) {
      // a trade booked after the first run, and the close moved (what scripts/move-demo-levels
      // does)
      s.execute(
          "insert into position (business_date, position_id, portfolio_id, instrument, factor_id,"
              + " currency, quantity) values (date '2026-11-20', 'P-NEW', 'EQ-US', 'spot',"
              + " 'EQ-US-01', 'USD', 1000)");
      s.execute(
          "update factor_history set level = cast(level * 1.01 as decimal(20, 10))"
              + " where as_of = date '2026-11-20' and factor_id like 'EQ-%'");
    }
    start();
    String second = client.submitJob(new JobDocument(sampleJob()));
    JobStatusInfo status = awaitEnd(second, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    Map<String, StagedFileInfo> after = byTarget(client.getJobResults(second).stagedIn);
    for (String file :
        List.of(
            "positions.csv.gz",
            "params.csv.gz",
            "factor-ids.csv",
            "factors.csv.gz",
            "history.csv.gz")) {
      assertTrue(
          after.get(file).step.startsWith("sql-extract["), file + ": " + after.get(file).step);
    }
    assertEquals(before.get("positions.csv.gz").rows + 1, after.get("positions.csv.gz").rows);
    assertTrue(
        !before.get("factors.csv.gz").checksum.equals(after.get("factors.csv.gz").checksum),
        "the closes moved, so their extract differs");
  }

  private Connection demoDatabase() throws Exception {
    return DriverManager.getConnection(
        new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "");
  }

  private static String text(Connection c, String sql, String value) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, value);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), sql);
        return rs.getString(1);
      }
    }
  }

  private static Map<String, StagedFileInfo> byTarget(List<StagedFileInfo> files) {
    Map<String, StagedFileInfo> m = new java.util.HashMap<>();
    files.forEach(f -> m.put(f.target, f));
    return m;
  }

  private JobStatusInfo awaitEnd(String jobId, Duration timeout) {
    return TestJobs.awaitFinal(client, jobId, timeout);
  }

  private static double scalar(Connection c, String sql, String jobId) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), sql);
        return rs.getDouble(1);
      }
    }
  }
}
