package io.gantry.server.internal.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.staging.StageOutLedgerDdl;
import io.gantry.testing.risk.VarResultRows;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The results history against an H2 database with the demo's result tables (its schema script,
 * without the demo's generated market data) and the stage-out ledger, read with a reader account
 * that may only SELECT. (The demo's own reader account reads the same tables in BacktestJobTest.)
 */
class RiskResultsTest {
  private static final LocalDate D19 = LocalDate.of(2026, 11, 19);
  private static final LocalDate D20 = LocalDate.of(2026, 11, 20);
  private static final String EU = "BANK/GANTRY-EU";
  private static final String EQ_EU = "BANK/GANTRY-EU/EQUITIES/EQ-EU";
  private static final String URL =
      "jdbc:h2:mem:risk-results;DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=VALUE";

  @TempDir static Path dir;
  static Connection owner; // keeps the in-memory database open
  static NamedDataSource demo;
  static RiskResults results;

  @BeforeAll
  static void fill() throws Exception {
    owner = DriverManager.getConnection(URL, "sa", "");
    try (Statement s = owner.createStatement();
        InputStream in = DemoMarket.class.getResourceAsStream("market-schema.sql")) {
      String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String sql : script.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
      s.execute(StageOutLedgerDdl.CREATE_TABLE);
      s.execute("create user results_reader password 'reader secret'");
      s.execute(
          "grant select on table var_run, var_node_summary, gantry_stage_out_ledger"
              + " to results_reader");
    }
    Path readerPassword = Files.writeString(dir.resolve("reader.password"), "reader secret");
    demo =
        new NamedDataSource(
            "demo-market",
            URL,
            "sa",
            new PasswordSource.None(),
            Set.of(),
            new NamedDataSource.Account(
                "results_reader", new PasswordSource.FromFile(readerPassword)));
    // the same database once more, under a name only alice may use
    NamedDataSource restricted =
        new NamedDataSource(
            "desk-results",
            demo.jdbcUrl(),
            demo.user(),
            demo.password(),
            Set.of("alice"),
            demo.reader());
    results =
        new RiskResults(
            Map.of("demo-market", demo, "desk-results", restricted),
            List.of("demo-market", "desk-results"));
    Connection c = owner;
    // run a: the whole bank on the 19th; b: its rerun; c: a rerun of one desk only
    run(c, "run-a", D19, "monte-carlo", "2026-11-20T06:00:00Z");
    run(c, "run-b", D19, "monte-carlo", "2026-11-20T07:00:00Z");
    run(c, "run-c", D19, "monte-carlo", "2026-11-20T08:00:00Z");
    run(c, "run-h", D19, "historical", "2026-11-20T05:00:00Z");
    run(c, "run-d", D20, "monte-carlo", "2026-11-21T06:00:00Z");
    run(c, "run-old", D20, "monte-carlo", null); // loaded without stage-out: oldest
    for (String node : List.of("BANK", EU, EQ_EU, "BANK/GANTRY-US")) {
      figure(c, "run-a", D19, node, 100);
      figure(c, "run-b", D19, node, 200);
      figure(c, "run-h", D19, node, 300);
      figure(c, "run-d", D20, node, 400);
      figure(c, "run-old", D20, node, 500);
    }
    figure(c, "run-c", D19, EQ_EU, 250);
    figure(c, "run-b", D19, "BANK/GANTRY-EUX", 1); // a sibling whose name starts like EU's
    try (Statement s = c.createStatement()) {
      for (String ddl : DemoMarket.BACKTEST_TABLES) {
        s.execute(ddl);
      }
      s.execute("grant select on table backtest_summary to results_reader");
    }
    // bt-1 and its rerun bt-2 on the 19th, bt-3 on the 20th
    backtest(c, "bt-1", D19, "2026-11-20T06:30:00Z", 3, "green");
    backtest(c, "bt-2", D19, "2026-11-20T07:30:00Z", 5, "yellow");
    backtest(c, "bt-3", D20, "2026-11-21T06:30:00Z", 5, "yellow");
  }

  @Test
  void aNodesPnlIsItsDesksSummedAndAPositionsContributionsAreThoseOfTheRunAndNode()
      throws Exception {
    String bank = "PNL-BANK";
    String deskA = bank + "/A";
    String deskB = bank + "/B";
    try (Statement s = owner.createStatement()) {
      s.execute(
          "grant select on table desk_pnl, node_ancestor, var_position_contribution"
              + " to results_reader");
    }
    new VarResultRows(owner)
        .hierarchy(List.of(bank, deskA, deskB))
        .pnl(D19, deskA, -10)
        .pnl(D19, deskB, 4)
        .pnl(D20, deskA, 7)
        .pnl(D20.plusDays(1), deskB, 99) // after the span asked for
        .contribution("run-a", D19, deskA, "P-2", 30, 40)
        .contribution("run-a", D19, deskA, "P-1", 60, 70)
        .contribution("run-a", D19, deskB, "P-3", 5, 6)
        .contribution("run-b", D19, deskA, "P-9", 1, 1);

    List<NodePnl> days = results.pnl("bob", bank, D19, D20);
    assertEquals(List.of(D19, D20), days.stream().map(NodePnl::businessDate).toList());
    assertEquals(-6, days.get(0).pnl(), 1e-9, "both desks summed");
    assertEquals(7, days.get(1).pnl(), 1e-9);
    assertEquals(
        List.of(-10.0), results.pnl("bob", deskA, D19, D19).stream().map(NodePnl::pnl).toList());
    assertEquals(2, results.pnl("alice", deskA, D19, D20).size() / 2, "alice reads both names");

    List<PositionContributionRow> positions =
        results.positions("bob", "demo-market", "run-a", deskA);
    assertEquals(
        List.of("P-1", "P-2"),
        positions.stream().map(PositionContributionRow::positionId).toList(),
        "largest contribution first, that run and node only");
    assertEquals(70, positions.get(0).esContribution(), 1e-9);
    assertTrue(
        results.positions("bob", "desk-results", "run-a", deskA).isEmpty(),
        "a data source bob may not read answers nothing");
    assertTrue(results.positions("bob", "no-such-source", "run-a", deskA).isEmpty());
    assertThrows(
        IllegalArgumentException.class, () -> results.pnl("bob", bank, D20, D19), "dates reversed");
  }

  private static void backtest(
      Connection c, String runId, LocalDate day, String staged, int exceptions, String zone)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into backtest_summary (run_id, business_date, node, confidence, pnl_type,"
                + " window_days, observations, exceptions, expected_exceptions, zone,"
                + " kupiec_p_value) values (?, ?, 'BANK', 0.99, 'hypothetical', 250, 250, ?, 2.5,"
                + " ?, 0.2)")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setInt(3, exceptions);
      ps.setString(4, zone);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into gantry_stage_out_ledger (job_id, step_key, file_checksum, row_count,"
                + " committed_at) values (?, 'summary', 'x', 1, ?)")) {
      ps.setString(1, runId);
      ps.setTimestamp(2, Timestamp.from(Instant.parse(staged)));
      ps.executeUpdate();
    }
  }

  @Test
  void aBacktestRerunSupersedesTheEarlierOneAndNoDateMeansTheLatest() {
    Map<String, String> d19 =
        results.backtest("bob", "BANK", D19).stream()
            .collect(
                Collectors.toMap(
                    BacktestFigure::runId, f -> f.current() ? "current" : f.supersededBy()));
    assertEquals(Map.of("bt-1", "bt-2", "bt-2", "current"), d19);
    List<BacktestFigure> latest = results.backtest("bob", "BANK", null);
    assertEquals(1, latest.size(), latest.toString());
    BacktestFigure f = latest.get(0);
    assertEquals(D20, f.businessDate());
    assertEquals("yellow", f.zone());
    assertEquals(5, f.exceptions());
    assertEquals(250, f.observations());
    assertEquals(Instant.parse("2026-11-21T06:30:00Z"), f.stagedOutAt());
    assertEquals("demo-market", f.dataSource());
    assertNull(f.conditionalCoveragePValue());
    assertEquals(
        Set.of("demo-market", "desk-results"),
        results.backtest("alice", "BANK", null).stream()
            .map(BacktestFigure::dataSource)
            .collect(Collectors.toSet()),
        "alice may also use desk-results; bob may not");
    assertTrue(results.backtest("bob", "BANK/GANTRY-EU", D19).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> results.backtest("bob", " ", null));
  }

  @AfterAll
  static void close() throws SQLException {
    owner.close();
  }

  @Test
  void aRerunSupersedesTheEarlierRunOfItsNodesAndBothStayVisible() {
    Map<String, String> bank =
        byRun(results.summary("bob", D19, null).stream().filter(f -> f.node().equals("BANK")));
    assertEquals(
        Map.of("run-a", "run-b", "run-b", "current", "run-h", "current"),
        bank,
        "a historical run is another method: it supersedes no Monte Carlo figure");
    Map<String, String> desk =
        byRun(results.summary("bob", D19, null).stream().filter(f -> f.node().equals(EQ_EU)));
    assertEquals(
        Map.of("run-a", "run-c", "run-b", "run-c", "run-c", "current", "run-h", "current"), desk);
    VarFigure current =
        results.summary("bob", D19, EQ_EU).stream()
            .filter(f -> f.current() && f.method().equals("monte-carlo"))
            .findFirst()
            .orElseThrow();
    assertEquals(250 * 0.99, current.var(), 1e-9);
    assertEquals(250.0, current.expectedShortfall(), 1e-9);
    assertEquals("run-c", current.run().runId());
    assertEquals(Instant.parse("2026-11-20T08:00:00Z"), current.run().stagedOutAt());
    assertEquals(D19, current.run().businessDate());
    assertEquals(1000, current.run().scenarios());
    assertEquals("USD", current.run().baseCurrency());
    assertEquals("mcvar 2.0", current.run().programVersion());
    assertEquals(0, current.confidence().compareTo(new java.math.BigDecimal("0.99")));
    assertEquals(2.5, current.varStderr(), 1e-12);
    assertNull(current.esStderr());
  }

  @Test
  void aRunWithoutAStageOutTimeIsOlderThanAnyWithOne() {
    Map<String, String> bank =
        byRun(results.summary("bob", D20, "BANK").stream().filter(f -> f.node().equals("BANK")));
    assertEquals(Map.of("run-d", "current", "run-old", "run-d"), bank);
  }

  @Test
  void aNodeMeansItselfAndTheNodesBelowItNotASiblingWithTheSamePrefix() {
    Set<String> nodes =
        results.summary("bob", D19, EU).stream().map(VarFigure::node).collect(Collectors.toSet());
    assertEquals(Set.of(EU, EQ_EU), nodes);
  }

  @Test
  void aHistoryIsOneNodeByBusinessDate() {
    List<VarFigure> history = results.history("bob", EU, D19, D20);
    assertEquals(
        List.of(
            "2026-11-19 run-a",
            "2026-11-19 run-b",
            "2026-11-19 run-h",
            "2026-11-20 run-d",
            "2026-11-20 run-old"),
        history.stream().map(f -> f.businessDate() + " " + f.run().runId()).sorted().toList());
    assertTrue(results.history("bob", EU, D20.plusDays(1), D20.plusDays(30)).isEmpty());
  }

  @Test
  void aUserSeesOnlyTheDataSourcesTheyMayUse() {
    assertEquals(List.of("demo-market"), results.sourcesFor("bob"));
    assertEquals(List.of("demo-market", "desk-results"), results.sourcesFor("alice"));
    assertEquals(
        Set.of("demo-market"),
        results.history("bob", "BANK", D19, D20).stream()
            .map(VarFigure::dataSource)
            .collect(Collectors.toSet()));
    List<VarFigure> alice = results.history("alice", "BANK", D19, D20);
    assertEquals(
        Set.of("demo-market", "desk-results"),
        alice.stream().map(VarFigure::dataSource).collect(Collectors.toSet()));
    assertEquals(2 * results.history("bob", "BANK", D19, D20).size(), alice.size());
  }

  @Test
  void theReaderAccountOnlyReads() throws SQLException {
    try (Connection reader = DriverManager.getConnection(URL, "results_reader", "reader secret");
        Statement s = reader.createStatement()) {
      assertThrows(SQLException.class, () -> s.executeUpdate("delete from var_run"));
    }
    assertEquals(
        List.of("run-a", "run-b", "run-h"),
        results.summary("bob", D19, "BANK/GANTRY-US").stream()
            .map(f -> f.run().runId())
            .sorted()
            .toList());
  }

  @Test
  void badQuestionsAndUnreadableSourcesAreNamed() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RiskResults(Map.of("demo-market", demo), List.of("risk-db")));
    assertTrue(unknown.getMessage().contains("'risk-db'"), unknown.getMessage());
    IllegalArgumentException backwards =
        assertThrows(
            IllegalArgumentException.class, () -> results.history("bob", "BANK", D20, D19));
    assertTrue(backwards.getMessage().contains("2026-11-20 is after the last 2026-11-19"));
    assertThrows(IllegalArgumentException.class, () -> results.history("bob", " ", D19, D20));
    NamedDataSource locked =
        new NamedDataSource(
            "locked",
            demo.jdbcUrl(),
            demo.user(),
            demo.password(),
            Set.of(),
            new NamedDataSource.Account(
                "results_reader", new PasswordSource.FromFile(dir.resolve("no-such-file"))));
    RiskResultsException unreadable =
        assertThrows(
            RiskResultsException.class,
            () ->
                new RiskResults(Map.of("locked", locked), List.of("locked"))
                    .summary("bob", D19, null));
    assertTrue(unreadable.getMessage().contains("data source 'locked'"), unreadable.getMessage());
  }

  /** Run id to the run that supersedes it, or "current". */
  private static Map<String, String> byRun(java.util.stream.Stream<VarFigure> figures) {
    return figures
        .filter(f -> f.dataSource().equals("demo-market"))
        .collect(
            Collectors.toMap(
                f -> f.run().runId(), f -> f.current() ? "current" : f.supersededBy()));
  }

  private static void run(
      Connection c, String runId, LocalDate date, String method, String stagedOut)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_run (run_id, business_date, method, horizon_days, scenarios, seed,"
                + " base_currency, confidence_levels, program_version)"
                + " values (?, ?, ?, 1, 1000, 7, 'USD', '0.99', 'mcvar 2.0')")) {
      ps.setString(1, runId);
      ps.setObject(2, date);
      ps.setString(3, method);
      ps.executeUpdate();
    }
    if (stagedOut != null) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "insert into gantry_stage_out_ledger (job_id, step_key, file_checksum, row_count,"
                  + " committed_at) values (?, 'step', 'x', 1, ?)")) {
        ps.setString(1, runId);
        ps.setTimestamp(2, Timestamp.from(Instant.parse(stagedOut)));
        ps.executeUpdate();
      }
    }
  }

  private static void figure(Connection c, String runId, LocalDate date, String node, double es)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_node_summary (run_id, business_date, node, confidence, var,"
                + " expected_shortfall, var_stderr, pnl_mean, pnl_stddev, scenarios)"
                + " values (?, ?, ?, 0.99, ?, ?, 2.5, 0, 1, 1000)")) {
      ps.setString(1, runId);
      ps.setObject(2, date);
      ps.setString(3, node);
      ps.setDouble(4, es * 0.99);
      ps.setDouble(5, es);
      ps.executeUpdate();
    }
  }
}
