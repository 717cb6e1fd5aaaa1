package io.gantry.server.internal.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/**
 * The backtest job (jsdl-schema/examples/var-backtest.jsdl) end to end on a real server with the
 * demo database: a VaR history is written into the result tables as nightly VaR jobs' stage-out
 * writes it (with a superseded rerun and another method's run on some nights, which must not be
 * used), the job stages it and the P&L in, runs the built var-backtest, and stages its results out
 * into backtest_summary and backtest_exceptions. The test counts the exceptions itself from the
 * demo's desk P&L, and sums the bank's P&L from its desks.
 */
class BacktestJobTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path BACKTEST = REPOSITORY.resolve("node-programs/build/var-backtest");
  private static final String ADMIN_PASSWORD = "the backtest test's admin password";
  private static final int POSITIONS = 20;
  private static final int WINDOW_DAYS = 250;
  private static final List<String> NODES =
      List.of(
          "BANK",
          "BANK/GANTRY-EU/EQUITIES/EQ-EU",
          "BANK/GANTRY-EU/EQUITIES/EQ-JP",
          "BANK/GANTRY-EU/RATES/RATES-EUR",
          "BANK/GANTRY-US/EQUITIES/EQ-US",
          "BANK/GANTRY-US/FX/FX-G10",
          "BANK/GANTRY-US/RATES/RATES-USD");

  @TempDir Path dir;

  @Test
  void theBacktestJobStagesTheCurrentVarHistoryAndSummedPnlInAndItsResultsOut() throws Exception {
    assertTrue(
        Files.isExecutable(BACKTEST), "build the node programs first (scripts/build): " + BACKTEST);
    Path dataDir = dir.resolve("server");
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .secure()
            .demo(POSITIONS)
            .settings(
                Map.of(
                    "admin.password-file", adminPassword.toString(),
                    "jobs.allowed-executable-roots", BACKTEST.getParent().toString()));
    // the build's demo database of this size, copied in now (not generated again here) so that
    // the VaR history is written into it before the server opens it
    DemoMarket market = new DemoMarket(builder.prepareDemo(), POSITIONS);
    Map<String, NavigableMap<LocalDate, Double>> pnl = nodePnl(market);
    Map<String, Double> var = new TreeMap<>();
    pnl.forEach((node, series) -> var.put(node, 2.0 * stddev(series.values())));
    writeVarHistory(market, pnl, var);

    // the server's data is its own: made here before it starts, so given the modes it demands
    try (var files = Files.walk(dataDir)) {
      for (Path p : files.toList()) {
        Files.setPosixFilePermissions(
            p,
            PosixFilePermissions.fromString(
                p.equals(dataDir)
                    ? "rwx--x--x"
                    : Files.isDirectory(p) ? "rwx------" : "rw-------"));
      }
    }
    String job;
    try (GantryTestServer server = builder.start()) {
      JobManagement client =
          JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
      String xml =
          Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-backtest.jsdl"))
              .replace(
                  "<gx:Executable>var-backtest</gx:Executable>",
                  "<gx:Executable>" + BACKTEST + "</gx:Executable>");
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      job =
          client.submitJob(
              new JobDocument(
                  f.newDocumentBuilder()
                      .parse(new InputSource(new StringReader(xml)))
                      .getDocumentElement()));
      JobStatusInfo status = TestJobs.awaitFinal(client, job, Duration.ofMinutes(3));
      String stderr =
          new String(
              client.getJobOutput(job, OutputStreamName.STDERR, 0, 1 << 14).data,
              java.nio.charset.StandardCharsets.UTF_8);
      assertEquals(
          JobStateName.SUCCEEDED,
          status.state,
          () -> "failed: " + status.failureReason + "; standard error: " + stderr);
    } // the demo database is a file of the server's, which H2 opens in one process

    try (Connection c = DriverManager.getConnection(market.jdbcUrl(), "sa", "")) {
      for (String node : NODES) {
        List<Double> series = new ArrayList<>(pnl.get(node).values());
        int exceptions = 0;
        for (int i = 1; i < series.size(); i++) { // VaR of day i-1 against the P&L of day i
          exceptions += -series.get(i) > var.get(node) ? 1 : 0;
        }
        try (PreparedStatement ps =
            c.prepareStatement(
                "select observations, exceptions, zone, window_days, last_date"
                    + " from backtest_summary where run_id = ? and node = ? and confidence = 0.99"
                    + " and pnl_type = 'hypothetical'")) {
          ps.setString(1, job);
          ps.setString(2, node);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next(), "no backtest row for " + node);
            assertEquals(series.size() - 1, rs.getInt("observations"), node);
            assertEquals(exceptions, rs.getInt("exceptions"), node);
            assertEquals(zone(exceptions), rs.getString("zone"), node);
            assertEquals(250, rs.getInt("window_days"));
            assertEquals(DemoMarket.LAST_BUSINESS_DATE, rs.getObject("last_date", LocalDate.class));
          }
        }
        try (PreparedStatement ps =
            c.prepareStatement(
                "select pnl_date, pnl, var from backtest_exceptions where run_id = ? and node = ?"
                    + " and confidence = 0.99 order by pnl_date")) {
          ps.setString(1, job);
          ps.setString(2, node);
          int listed = 0;
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              listed++;
              LocalDate day = rs.getObject("pnl_date", LocalDate.class);
              assertEquals(pnl.get(node).get(day), rs.getDouble("pnl"), 1e-6, node + " " + day);
              assertEquals(var.get(node), rs.getDouble("var"), 1e-9, "the current run's VaR");
            }
          }
          assertEquals(exceptions, listed, node);
        }
      }
      assertTrue(
          pnl.values().stream().anyMatch(s -> s.size() == 250), "a year of P&L in the window");
    }
  }

  /** The 99% traffic light for 250 days, as the Basel 1996 table gives it (249 observations). */
  private static String zone(int exceptions) {
    return exceptions <= 4 ? "green" : exceptions <= 9 ? "yellow" : "red";
  }

  /**
   * Each desk's P&L by date over the backtest's window (the last 250 business days: desk_pnl covers
   * the whole history), and the bank's as the sum of its desks'.
   */
  private static Map<String, NavigableMap<LocalDate, Double>> nodePnl(DemoMarket market)
      throws SQLException {
    Map<String, NavigableMap<LocalDate, Double>> all = new TreeMap<>();
    readPnl(market, all);
    Map<String, NavigableMap<LocalDate, Double>> pnl = new TreeMap<>();
    all.forEach(
        (node, series) -> {
          LocalDate first = new ArrayList<>(series.keySet()).get(series.size() - WINDOW_DAYS);
          pnl.put(node, new TreeMap<>(series.tailMap(first, true)));
        });
    return pnl;
  }

  private static void readPnl(DemoMarket market, Map<String, NavigableMap<LocalDate, Double>> pnl)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(market.jdbcUrl(), "sa", "");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("select business_date, node, hypothetical_pnl from desk_pnl")) {
      while (rs.next()) {
        LocalDate day = rs.getObject(1, LocalDate.class);
        double value = rs.getDouble(3);
        pnl.computeIfAbsent(rs.getString(2), n -> new TreeMap<>()).put(day, value);
        pnl.computeIfAbsent("BANK", n -> new TreeMap<>()).merge(day, value, Double::sum);
      }
    }
  }

  /**
   * One run a night for every node at 99%, staged out at 06:00 the next day; on the first half of
   * the nights an earlier run (05:00) with a VaR of 0, superseded by it, and a run of another
   * method with a VaR of 0, both of which would make every loss an exception if used.
   */
  private static void writeVarHistory(
      DemoMarket market, Map<String, NavigableMap<LocalDate, Double>> pnl, Map<String, Double> var)
      throws SQLException {
    List<LocalDate> days = new ArrayList<>(pnl.get("BANK").keySet());
    try (Connection c = DriverManager.getConnection(market.jdbcUrl(), "sa", "")) {
      c.setAutoCommit(false);
      for (int d = 0; d < days.size(); d++) {
        LocalDate day = days.get(d);
        Instant staged = day.plusDays(1).atTime(6, 0).toInstant(java.time.ZoneOffset.UTC);
        run(c, "night-" + day, day, "mc-normal", staged, var);
        if (d < days.size() / 2) {
          run(c, "early-" + day, day, "mc-normal", staged.minusSeconds(3600), null);
          run(c, "hs-" + day, day, "historical", staged.plusSeconds(3600), null);
        }
      }
      c.commit();
    }
  }

  /** A run's var_run row, its ledger entry and its 99% figures: {@code var}'s, or 0 when null. */
  private static void run(
      Connection c,
      String runId,
      LocalDate day,
      String method,
      Instant staged,
      Map<String, Double> var)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_run (run_id, business_date, method, horizon_days, scenarios, seed,"
                + " base_currency, confidence_levels, program_version)"
                + " values (?, ?, ?, 1, 1000, 1, 'USD', '0.99', 'test')")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setString(3, method);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into gantry_stage_out_ledger (job_id, step_key, file_checksum, row_count,"
                + " committed_at) values (?, 'summary', 'x', 1, ?)")) {
      ps.setString(1, runId);
      ps.setTimestamp(2, Timestamp.from(staged));
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_node_summary (run_id, business_date, node, confidence, var,"
                + " expected_shortfall, pnl_mean, pnl_stddev, scenarios)"
                + " values (?, ?, ?, 0.99, ?, ?, 0, 1, 1000)")) {
      for (String node : NODES) {
        double v = var == null ? 0 : var.get(node);
        ps.setString(1, runId);
        ps.setObject(2, day);
        ps.setString(3, node);
        ps.setDouble(4, v);
        ps.setDouble(5, v * 1.2);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static double stddev(java.util.Collection<Double> values) {
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
    return Math.sqrt(squares / (values.size() - 1));
  }
}
