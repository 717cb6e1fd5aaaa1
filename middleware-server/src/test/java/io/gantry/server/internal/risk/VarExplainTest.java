package io.gantry.server.internal.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.internal.risk.VarExplain.Component;
import io.gantry.staging.StageOutLedgerDdl;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The explain and the limits against an H2 database with the demo's tables, read with an account
 * that may only SELECT. The test plants each position's quantity and marginal VaR, writes the
 * contributions q m as mcvar's stage-out would, and recomputes every component from its own
 * quantities (docs/risk-view.md, "Explain"), not from the contributions the server reads.
 */
class VarExplainTest {
  private static final LocalDate D1 = LocalDate.of(2026, 11, 19);
  private static final LocalDate D2 = LocalDate.of(2026, 11, 20);
  private static final String DESK = "BANK/DESK";
  private static final String URL =
      "jdbc:h2:mem:var-explain;DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=VALUE";

  /** A position on one date: quantity, marginal VaR (null for quantity 0), its factor or null. */
  private record Held(double quantity, Double marginal, String factor, String currency) {
    double contribution() {
      return marginal == null ? 0 : quantity * marginal;
    }
  }

  private static final Map<String, Held> BOOK1 = new TreeMap<>();
  private static final Map<String, Held> BOOK2 = new TreeMap<>();
  private static final double RESIDUAL1 = 0.25; // VaR beyond its contributions' sum (rounding)
  private static final double RESIDUAL2 = -0.5;

  @TempDir static Path dir;
  static Connection owner;
  static RiskResults results;

  @BeforeAll
  static void fill() throws Exception {
    BOOK1.put("P-HELD-A", new Held(100, 0.5, "EQ1", "USD")); // more of it, and riskier
    BOOK2.put("P-HELD-A", new Held(150, 0.6, "EQ1", "USD"));
    BOOK1.put("P-HELD-B", new Held(-40, -0.2, "FX1", "USD")); // same quantity, market moved
    BOOK2.put("P-HELD-B", new Held(-40, -0.35, "FX1", "USD"));
    BOOK1.put("P-HELD-C", new Held(0, null, "EQ1", "USD")); // reopened from quantity 0
    BOOK2.put("P-HELD-C", new Held(10, 1.5, "EQ1", "USD"));
    BOOK1.put("P-MAT", new Held(20, 2.0, null, "EUR")); // cash, counted under its currency
    BOOK2.put("P-NEW", new Held(5, 3.0, "FX1", "USD"));

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
      s.execute(DemoMarket.VAR_LIMIT_TABLE);
      s.execute("create user results_reader password 'reader secret'");
      s.execute(
          "grant select on table var_run, var_node_summary, gantry_stage_out_ledger,"
              + " var_position_contribution, position, var_limit to results_reader");
      s.execute(
          "insert into hierarchy_node values ('BANK', null, 'BANK', 'bank', 'b'),"
              + " ('BANK/DESK', 'BANK', 'DESK', 'desk', 'd')");
      s.execute("insert into portfolio values ('PF', 'pf', 'BANK/DESK', 'USD')");
      s.execute(
          "insert into risk_factor (factor_id, kind, currency, return_type, description)"
              + " values ('EQ1', 'equity', 'USD', 'log', 'e'), ('FX1', 'fx', 'EUR', 'log', 'f')");
    }
    Path readerPassword = Files.writeString(dir.resolve("reader.password"), "reader secret");
    NamedDataSource source =
        new NamedDataSource(
            "desk-results",
            URL,
            "sa",
            new PasswordSource.None(),
            Set.of("alice"),
            new NamedDataSource.Account(
                "results_reader", new PasswordSource.FromFile(readerPassword)));
    results = new RiskResults(Map.of("desk-results", source), List.of("desk-results"));
    Connection c = owner;
    // r0: an earlier run of D1 that r1 superseded, with a VaR and a position a wrong pick shows
    run(c, "r0", D1, "mc-normal", "2026-11-20T05:00:00Z");
    figure(c, "r0", D1, DESK, 999);
    contribution(c, "r0", D1, DESK, "P-WRONG", 999, 1.0);
    run(c, "r1", D1, "mc-normal", "2026-11-20T06:00:00Z");
    run(c, "r2", D2, "mc-normal", "2026-11-21T06:00:00Z");
    run(c, "rh", D2, "historical", "2026-11-21T07:00:00Z"); // no D1 figure: nothing to explain
    book(c, "r1", D1, BOOK1, RESIDUAL1);
    book(c, "r2", D2, BOOK2, RESIDUAL2);
    figure(c, "rh", D2, DESK, 500);
    figure(c, "r1", D1, "BANK", 300); // a node without contributions of its own in these runs
    figure(c, "r2", D2, "BANK", 320);
    limit(c, DESK, "2026-01-01", 100);
    limit(c, DESK, D2.toString(), 120); // raised on D2
    limit(c, "BANK", "2026-01-01", 400);
  }

  @AfterAll
  static void close() throws SQLException {
    owner.close();
  }

  @Test
  void theComponentsAreTheOnesRecomputedFromTheQuantitiesAndAddUpToTheChange() {
    List<VarExplain> explains = results.explain("alice", DESK, D1, D2, 10);
    assertEquals(1, explains.size(), "the historical run has no figure on D1: " + explains);
    VarExplain e = explains.get(0);
    assertEquals("r1", e.from().run().runId(), "the current run of D1, not the superseded r0");
    assertEquals("r2", e.to().run().runId());

    // the test's own computation from the planted quantities and marginal VaRs
    double newPositions = 0;
    double matured = 0;
    double quantity = 0;
    double market = 0;
    for (Map.Entry<String, Held> p : BOOK2.entrySet()) {
      Held before = BOOK1.get(p.getKey());
      Held after = p.getValue();
      if (before == null) {
        newPositions += after.quantity() * after.marginal();
      } else if (before.marginal() == null) { // quantity 0 on D1: all of it is quantity
        quantity += after.quantity() * after.marginal();
      } else {
        quantity += (after.quantity() - before.quantity()) * before.marginal();
        market += after.quantity() * (after.marginal() - before.marginal());
      }
    }
    for (Map.Entry<String, Held> p : BOOK1.entrySet()) {
      if (!BOOK2.containsKey(p.getKey())) {
        matured -= p.getValue().quantity() * p.getValue().marginal();
      }
    }
    double var1 = var(BOOK1, RESIDUAL1);
    double var2 = var(BOOK2, RESIDUAL2);
    double residual = (var2 - var1) - (newPositions + matured + quantity + market);
    assertEquals(RESIDUAL2 - RESIDUAL1, residual, 1e-12, "what the contributions miss");

    Map<Component, Double> amounts = new HashMap<>();
    e.components().forEach(c -> amounts.put(c.component(), c.amount()));
    assertEquals(newPositions, amounts.get(Component.NEW_POSITIONS), 1e-9);
    assertEquals(matured, amounts.get(Component.MATURED_POSITIONS), 1e-9);
    assertEquals(quantity, amounts.get(Component.QUANTITY_CHANGES), 1e-9);
    assertEquals(market, amounts.get(Component.MARKET_AND_TIME), 1e-9);
    assertEquals(residual, amounts.get(Component.RESIDUAL), 1e-9);
    assertEquals(var2 - var1, e.change(), 1e-12);
    assertEquals(
        e.change(),
        e.components().stream().mapToDouble(VarExplain.ComponentAmount::amount).sum(),
        1e-12,
        "the components add up to the change");
    assertEquals(
        List.of(1, 1, 3, 3, 0),
        e.components().stream().map(VarExplain.ComponentAmount::positions).toList());

    // positions by the size of their change, and factors summed from the planted book
    Map<String, Double> change = new TreeMap<>();
    Map<String, Double> byFactor = new TreeMap<>();
    for (String id : List.of("P-HELD-A", "P-HELD-B", "P-HELD-C", "P-MAT", "P-NEW")) {
      Held before = BOOK1.get(id);
      Held after = BOOK2.get(id);
      double d =
          (after == null ? 0 : after.contribution()) - (before == null ? 0 : before.contribution());
      change.put(id, d);
      Held book = after != null ? after : before;
      byFactor.merge(book.factor() != null ? book.factor() : book.currency(), d, Double::sum);
    }
    assertEquals(5, e.topPositions().size());
    for (VarExplain.PositionChange p : e.topPositions()) {
      assertEquals(change.get(p.positionId()), p.change(), 1e-9, p.positionId());
      assertEquals(p.change(), p.quantityEffect() + p.marketEffect() + newOrMatured(p), 1e-12);
    }
    assertEquals("new", status(e, "P-NEW"));
    assertEquals("matured", status(e, "P-MAT"));
    assertEquals("held", status(e, "P-HELD-B"));
    for (int i = 1; i < e.topPositions().size(); i++) {
      assertTrue(
          Math.abs(e.topPositions().get(i - 1).change())
              >= Math.abs(e.topPositions().get(i).change()),
          "largest change first: " + e.topPositions());
    }
    assertEquals(byFactor.size(), e.topFactors().size());
    e.topFactors().forEach(f -> assertEquals(byFactor.get(f.factor()), f.change(), 1e-9));
    assertEquals("EQ1", e.topFactors().get(0).factor(), "the largest change: " + byFactor);

    VarExplain two = results.explain("alice", DESK, D1, D2, 2).get(0);
    assertEquals(List.of("P-HELD-A", "P-MAT"), ids(two), "a tie of |40| by position id");
    assertEquals(2, two.topFactors().size());
  }

  @Test
  void limitsInForceOnEachDateGiveUsageAndBreaches() {
    List<LimitUsage> d1 = results.limitUsage("alice", D1, DESK);
    assertEquals(1, d1.size(), "the current figure only: " + d1);
    assertEquals(100, d1.get(0).limit().limit());
    assertEquals(100 * var(BOOK1, RESIDUAL1) / 100, d1.get(0).usagePercent(), 1e-9);
    assertFalse(d1.get(0).breached());

    List<LimitUsage> d2 = results.limitUsage("alice", D2, null);
    assertEquals(
        List.of("BANK mc-normal", "BANK/DESK historical", "BANK/DESK mc-normal"),
        d2.stream().map(u -> u.figure().node() + " " + u.figure().method()).sorted().toList());
    LimitUsage desk =
        d2.stream()
            .filter(u -> u.figure().node().equals(DESK) && u.figure().method().equals("mc-normal"))
            .findFirst()
            .orElseThrow();
    assertEquals(120, desk.limit().limit(), "the limit raised on D2 is the one in force");
    assertEquals(D2, desk.limit().validFrom());
    assertEquals(100 * var(BOOK2, RESIDUAL2) / 120, desk.usagePercent(), 1e-9);
    assertTrue(desk.breached());
    assertEquals(
        List.of("BANK/DESK historical", "BANK/DESK mc-normal"),
        d2.stream()
            .filter(LimitUsage::breached)
            .map(u -> u.figure().node() + " " + u.figure().method())
            .sorted()
            .toList());
  }

  @Test
  void aUserWhoMayNotUseTheDataSourceGetsNoExplainAndNoLimits() {
    assertEquals(List.of(), results.explain("bob", DESK, D1, D2, 10));
    assertEquals(List.of(), results.limitUsage("bob", D2, null));
    assertEquals(List.of(), results.limits("bob", D2));
  }

  @Test
  void aNodeWithoutContributionsOrDatesOutOfOrderAreRefusedSayingWhy() {
    IllegalArgumentException bank =
        assertThrows(
            IllegalArgumentException.class, () -> results.explain("alice", "BANK", D1, D2, 10));
    assertTrue(
        bank.getMessage().contains("run r1 of " + D1 + " stored no position contributions"),
        bank.getMessage());
    IllegalArgumentException order =
        assertThrows(
            IllegalArgumentException.class, () -> results.explain("alice", DESK, D2, D1, 10));
    assertTrue(order.getMessage().contains("is not before"), order.getMessage());
    assertThrows(IllegalArgumentException.class, () -> results.explain("alice", DESK, D1, D2, 0));
  }

  private static double newOrMatured(VarExplain.PositionChange p) {
    return p.status().equals("held") ? 0 : p.change();
  }

  private static String status(VarExplain e, String id) {
    return e.topPositions().stream()
        .filter(p -> p.positionId().equals(id))
        .findFirst()
        .orElseThrow()
        .status();
  }

  private static List<String> ids(VarExplain e) {
    return e.topPositions().stream().map(VarExplain.PositionChange::positionId).toList();
  }

  /** The node's VaR: its positions' contributions and what they miss. */
  private static double var(Map<String, Held> book, double residual) {
    return book.values().stream().mapToDouble(Held::contribution).sum() + residual;
  }

  private static void book(
      Connection c, String runId, LocalDate day, Map<String, Held> book, double residual)
      throws SQLException {
    figure(c, runId, day, DESK, var(book, residual));
    for (Map.Entry<String, Held> p : book.entrySet()) {
      Held h = p.getValue();
      contribution(c, runId, day, DESK, p.getKey(), h.contribution(), h.marginal());
      try (PreparedStatement ps =
          c.prepareStatement(
              "insert into position (business_date, position_id, portfolio_id, instrument,"
                  + " factor_id, currency, quantity) values (?, ?, 'PF', ?, ?, ?, ?)")) {
        ps.setObject(1, day);
        ps.setString(2, p.getKey());
        ps.setString(3, h.factor() == null ? "cash" : "spot");
        ps.setString(4, h.factor());
        ps.setString(5, h.currency());
        ps.setDouble(6, h.quantity());
        ps.executeUpdate();
      }
    }
  }

  private static void contribution(
      Connection c,
      String runId,
      LocalDate day,
      String node,
      String position,
      double contribution,
      Double marginal)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_position_contribution (run_id, business_date, node, position_id,"
                + " confidence, var_contribution, es_contribution, marginal_var)"
                + " values (?, ?, ?, ?, 0.99, ?, 0, ?)")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setString(3, node);
      ps.setString(4, position);
      ps.setDouble(5, contribution);
      ps.setObject(6, marginal);
      ps.executeUpdate();
    }
  }

  private static void limit(Connection c, String node, String validFrom, double limit)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_limit (node, confidence, var_limit, valid_from)"
                + " values (?, 0.99, ?, ?)")) {
      ps.setString(1, node);
      ps.setDouble(2, limit);
      ps.setObject(3, LocalDate.parse(validFrom));
      ps.executeUpdate();
    }
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
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into gantry_stage_out_ledger (job_id, step_key, file_checksum, row_count,"
                + " committed_at) values (?, 'step', 'x', 1, ?)")) {
      ps.setString(1, runId);
      ps.setTimestamp(2, Timestamp.from(Instant.parse(stagedOut)));
      ps.executeUpdate();
    }
  }

  private static void figure(Connection c, String runId, LocalDate date, String node, double var)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_node_summary (run_id, business_date, node, confidence, var,"
                + " expected_shortfall, pnl_mean, pnl_stddev, scenarios)"
                + " values (?, ?, ?, 0.99, ?, ?, 0, 1, 1000)")) {
      ps.setString(1, runId);
      ps.setObject(2, date);
      ps.setString(3, node);
      ps.setDouble(4, var);
      ps.setDouble(5, var * 1.2);
      ps.executeUpdate();
    }
  }
}
