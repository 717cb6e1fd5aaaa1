package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.testing.risk.VarResultRows;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The risk dashboard in Chromium against a real server whose results data source is the demo
 * database under a name only alice may use, with three months of nightly VaR for every node of the
 * demo's hierarchy written into it before the server starts (as stage-out leaves them): each VaR is
 * one standard deviation of the node's P&L (so that some days are exceptions), the last night's is
 * 10% higher, an earlier run of the last night with VaR 1 is superseded, and the desks have Monte
 * Carlo standard errors. The P&L is the demo's own desk P&L. The desk has a VaR limit twice its VaR
 * (usage 50%), BANK one its VaR exceeds (usage 125%, a breach); the desk's positions' contributions
 * are planted for the last two nights, so that its explain has a held, a matured and two new
 * positions.
 */
class RiskDashboardBrowserTest {
  @TempDir static Path dir;
  static GantryTestServer server;
  Browser browser;

  static final LocalDate DAY = DemoMarket.LAST_BUSINESS_DATE;
  static final String DESK = "BANK/GANTRY-EU/EQUITIES/EQ-EU";
  static final int NIGHTS = 63;
  static final String FORMULA = "=1+2";
  static final String QUOTED = "P,\"q\"";

  static List<String> nodes = new ArrayList<>();
  static java.util.Set<String> desks = new java.util.HashSet<>();
  static Map<String, NavigableMap<LocalDate, Double>> pnl = new TreeMap<>();
  static Map<String, Double> var = new TreeMap<>();
  static List<LocalDate> nights;

  /** As BrowserTest's server, with VaR results planted before it starts; it runs no job. */
  @BeforeAll
  static void startServer() throws Exception {
    GantryTestServerBuilder builder =
        WebTestServer.builder(
            dir,
            Map.of(
                "jobs.allowed-executable-roots",
                java.nio.file.Files.createDirectories(dir.resolve("programs")).toString()));
    Path demo = builder.dataDir().resolve("demo");
    DemoMarket market = new DemoMarket(demo, 300);
    builder.settings(
        Map.of(
            "risk.results-data-sources",
            "desk-results",
            "datasource.desk-results.users",
            WebTestServer.ALICE,
            "datasource.desk-results.url",
            market.accountJdbcUrl(),
            "datasource.desk-results.user",
            DemoMarket.WRITER,
            "datasource.desk-results.password-file",
            demo.resolve(DemoMarket.WRITER + ".password").toString(),
            "datasource.desk-results.read-user",
            DemoMarket.READER,
            "datasource.desk-results.read-password-file",
            demo.resolve(DemoMarket.READER + ".password").toString()));
    builder.prepareDemo();
    try (Connection c = DriverManager.getConnection(market.jdbcUrl(), "sa", "")) {
      plant(c);
    }
    server = builder.start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void startBrowser(TestInfo test) throws Exception {
    browser =
        new Browser(
            server,
            getClass().getSimpleName() + "/" + test.getTestMethod().orElseThrow().getName());
  }

  @AfterEach
  void stopBrowser() throws Exception {
    browser.close();
  }

  private static void plant(Connection c) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select node, node_kind from hierarchy_node order by node")) {
      while (rs.next()) {
        nodes.add(rs.getString(1));
        if (rs.getString(2).equals("desk")) {
          desks.add(rs.getString(1));
        }
      }
    }
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "select p.business_date, a.ancestor, sum(p.hypothetical_pnl) from desk_pnl p"
                    + " join node_ancestor a on a.node = p.node group by p.business_date, a.ancestor")) {
      while (rs.next()) {
        pnl.computeIfAbsent(rs.getString(2), n -> new TreeMap<>())
            .put(rs.getObject(1, LocalDate.class), rs.getDouble(3));
      }
    }
    NavigableMap<LocalDate, Double> bank = pnl.get("BANK");
    java.util.TreeSet<LocalDate> days = new java.util.TreeSet<>(bank.headMap(DAY, true).keySet());
    days.add(DAY);
    nights = new ArrayList<>(days.descendingSet()).subList(0, NIGHTS);
    java.util.Collections.reverse(nights);
    for (String node : nodes) {
      double sum = 0;
      double squares = 0;
      NavigableMap<LocalDate, Double> series = pnl.getOrDefault(node, new TreeMap<>());
      for (double v : series.values()) {
        sum += v;
        squares += v * v;
      }
      int n = Math.max(1, series.size());
      var.put(node, Math.sqrt(Math.max(0, squares / n - (sum / n) * (sum / n))) + 1);
    }
    c.setAutoCommit(false);
    VarResultRows rows = new VarResultRows(c);
    for (LocalDate night : nights) {
      Instant staged = night.plusDays(1).atTime(6, 0).toInstant(ZoneOffset.UTC);
      rows.run("night-" + night, night, "mc-normal", 10_000, staged);
      for (String node : nodes) {
        double v = varOn(node, night);
        rows.figure("night-" + night, night, node, v, 1.25 * v, desk(node) ? 0.01 * v : null);
      }
    }
    rows.run("early-" + DAY, DAY, "mc-normal", 10_000, DAY.atTime(23, 0).toInstant(ZoneOffset.UTC));
    for (String node : nodes) {
      rows.figure("early-" + DAY, DAY, node, 1, 1, null);
    }
    rows.contribution("night-" + DAY, DAY, DESK, "EQ-1", 300, 350)
        .contribution("night-" + DAY, DAY, DESK, FORMULA, 200, 250)
        .contribution("night-" + DAY, DAY, DESK, QUOTED, -50, -40)
        .contribution("night-" + eve(), eve(), DESK, "EQ-1", 250, 300)
        .contribution("night-" + eve(), eve(), DESK, "EQ-OLD", 100, 120)
        .backtest("bt-" + DAY, DAY, "BANK", 6, "yellow", staged(DAY))
        .backtest("bt-d-" + DAY, DAY, DESK, 2, "green", staged(DAY));
    try (java.sql.PreparedStatement ps =
        c.prepareStatement(
            "insert into var_limit (node, confidence, var_limit, valid_from)"
                + " values (?, 0.99, ?, ?)")) {
      for (Map.Entry<String, Double> limit : LIMITS.entrySet()) {
        ps.setString(1, limit.getKey());
        ps.setDouble(2, limit.getValue() * varOn(limit.getKey(), DAY));
        ps.setObject(3, nights.get(0));
        ps.executeUpdate();
      }
    }
    c.commit();
  }

  /** Each node's planted VaR limit as a multiple of its last VaR: the desk 50% used, BANK 125%. */
  static final Map<String, Double> LIMITS = Map.of(DESK, 2.0, "BANK", 0.8);

  /** The business date before the last. */
  static LocalDate eve() {
    return nights.get(nights.size() - 2);
  }

  private static Instant staged(LocalDate day) {
    return day.plusDays(1).atTime(7, 0).toInstant(ZoneOffset.UTC);
  }

  static boolean desk(String node) {
    return desks.contains(node);
  }

  /** The planted VaR: the node's, 10% higher on the last night. */
  static double varOn(String node, LocalDate night) {
    return night.equals(DAY) ? 1.1 * var.get(node) : var.get(node);
  }

  static String money(double v) {
    return String.format(Locale.ENGLISH, "%,.2f", v);
  }

  private List<String> cells(WebElement row) {
    return row.findElements(By.cssSelector("td")).stream().map(WebElement::getText).toList();
  }

  @Test
  void theDashboardDrillsDownToADesksHistoryAndPositionsAndComparesTwoDates() throws Exception {
    browser.logIn(WebTestServer.ALICE);
    browser.open("/risk?date=" + DAY);
    browser.await("#dashboard-table", 20);
    browser.shot("dashboard");
    LocalDate eve = nights.get(nights.size() - 2);
    List<WebElement> rows = browser.findAll("#dashboard-table tbody tr");
    assertEquals(nodes.size(), rows.size(), "one row a node: the superseded run is not shown");
    for (WebElement row : rows) {
      List<String> c = cells(row);
      String node = c.get(0);
      assertEquals("99%", c.get(1));
      assertEquals(money(varOn(node, DAY)), c.get(3), node);
      assertEquals(money(varOn(node, DAY) - varOn(node, eve)), c.get(6), node + " change");
      assertEquals("10.0%", c.get(7), node);
      assertEquals(desk(node) ? "\u00b1" + money(1.96 * 0.01 * varOn(node, DAY)) : "", c.get(4));
      assertEquals(desk(node) ? 1 : 0, row.findElements(By.cssSelector("svg.error-bar")).size());
      Double limit = LIMITS.get(node);
      assertEquals(limit == null ? "" : money(limit * varOn(node, DAY)), c.get(8), node);
      assertEquals(
          limit == null ? "" : node.equals("BANK") ? "125.0% breach" : "50.0%", c.get(9), node);
      assertEquals(
          node.equals("BANK") ? 1 : 0,
          row.findElements(By.cssSelector("td.breach")).size(),
          node + ": only a breach is marked");
    }
    WebElement bank = rows.get(nodes.indexOf("BANK"));
    assertTrue(cells(bank).get(10).startsWith("yellow (6 of 250"), cells(bank).toString());
    assertTrue(
        bank.findElements(By.cssSelector("td.zone-yellow")).size() == 1, "the light's colour");

    // the date picker: the business date before
    browser.script("arguments[0].value = arguments[1];", browser.find("#date"), eve.toString());
    browser.clickAndAwaitNewPage("#show-date");
    assertTrue(browser.find("h1").getText().contains(eve.toString()), browser.find("h1").getText());
    browser.shot("dashboard-day-before");

    // drill down: the desk's history, positions, then the side-by-side
    browser.open("/risk?date=" + DAY);
    browser.await("#dashboard-table", 20);
    browser.clickAndAwaitNewPage(
        "#dashboard-table a[href*='node=" + RiskTables.encode(DESK) + "&date']");
    browser.await("#history-plot svg", 20);
    new org.openqa.selenium.support.ui.Select(browser.find("#range")).selectByValue("6m");
    browser.clickAndAwaitNewPage("#show-range");
    browser.await("#history-plot svg", 20);
    browser.shot("desk-history");
    List<String> exceptions = new ArrayList<>();
    LocalDate before = null;
    for (LocalDate night : nights) {
      Double p = pnl.get(DESK).get(night);
      if (before != null && p != null && -p > varOn(DESK, before)) {
        exceptions.add(night.toString());
      }
      before = night;
    }
    List<String> marked =
        browser.findAll("#history-plot circle.exception").stream()
            .map(e -> e.getAttribute("data-date"))
            .toList();
    assertTrue(exceptions.size() >= 3, "the planted VaR gives exceptions: " + exceptions);
    assertEquals(exceptions, marked, "a loss beyond the VaR of the day before");
    assertEquals(
        exceptions.size(),
        browser.findAll("#history-table td.exception").size(),
        "the table marks the same days");
    assertEquals(
        List.of("EQ-1", FORMULA, QUOTED),
        browser.findAll("#positions-table tbody tr td:first-child").stream()
            .map(WebElement::getText)
            .toList(),
        "largest contribution first");
    // the explain from the night before: EQ-1 held (250 to 300), EQ-OLD matured, two new
    List<List<String>> explain =
        browser.findAll("#explain-table tbody tr").stream().map(this::cells).toList();
    double change = varOn(DESK, DAY) - varOn(DESK, eve());
    assertEquals(
        List.of(
            "new positions",
            "matured or closed positions",
            "held: quantity changes",
            "held: market moves and time",
            "residual/interaction"),
        explain.subList(0, 5).stream().map(r -> r.get(2)).toList());
    List<String> amounts = explain.stream().map(r -> r.get(4)).toList();
    assertEquals(
        List.of(
            money(150),
            money(-100),
            money(50), // no marginal VaR stored: the held change counts as quantity
            money(0),
            money(change - 100),
            money(change)),
        amounts,
        "the components add up to the change: " + explain);
    assertEquals(
        List.of(FORMULA, "EQ-OLD", "EQ-1", QUOTED),
        browser.findAll("#explain-positions-table tbody tr td:nth-child(3)").stream()
            .map(WebElement::getText)
            .toList(),
        "largest change first (ties by id)");
    browser.shot("desk-explain");
    assertEquals("BANK/GANTRY-EU/EQUITIES", browser.find("#parent-link").getText());
    browser.clickAndAwaitNewPage("#parent-link"); // up the hierarchy again
    assertEquals("BANK/GANTRY-EU/EQUITIES", browser.find("#node-name").getText());
    assertTrue(
        browser.find("#explain-problem").getText().contains("explain the run's top node or a desk"),
        "the server's reason in place of the explain: "
            + browser.find("#explain-problem").getText());
    assertEquals(0, browser.findAll("#explain-table").size());
    assertEquals("6m", browser.find("#range option[selected]").getAttribute("value"));

    browser.open("/risk/compare?other=" + eve + "&date=" + DAY);
    browser.await("#compare-table", 20);
    browser.shot("compare");
    WebElement bankRow = browser.findAll("#compare-table tbody tr").get(nodes.indexOf("BANK"));
    assertEquals(
        List.of(money(varOn("BANK", eve)), money(varOn("BANK", DAY))),
        cells(bankRow).subList(3, 5));
  }

  @Test
  void everyTableDownloadsAsCsvThatASpreadsheetCannotRunAndBobSeesNoFigures() throws Exception {
    browser.logIn(WebTestServer.ALICE);
    browser.open("/risk/node?node=" + RiskTables.encode(DESK) + "&date=" + DAY + "&range=1m");
    browser.await("#positions-table", 20);
    for (String table :
        List.of(
            "below-table",
            "history-table",
            "positions-table",
            "explain-table",
            "explain-positions-table")) {
      String href = browser.find("#" + table + "-csv").getAttribute("href");
      @SuppressWarnings("unchecked")
      Map<String, Object> answer =
          (Map<String, Object>)
              browser.script(
                  "return fetch(arguments[0]).then(r => r.text().then(t => ({status: r.status,"
                      + " type: r.headers.get('Content-Type'),"
                      + " disposition: r.headers.get('Content-Disposition'), body: t})));",
                  href);
      assertEquals(200L, answer.get("status"), table);
      assertEquals(
          "text/csv;charset=utf-8",
          String.valueOf(answer.get("type")).replace(" ", "").toLowerCase(Locale.ROOT));
      assertEquals(
          "attachment; filename=\"" + table + "-" + DAY + ".csv\"", answer.get("disposition"));
      String body = (String) answer.get("body");
      assertTrue(body.contains("\r\n"), "RFC 4180 line ends");
      List<CSVRecord> records = CSVFormat.RFC4180.parse(new StringReader(body)).getRecords();
      List<WebElement> rows = browser.findAll("#" + table + " tbody tr");
      assertEquals(rows.size() + 1, records.size(), table + ": a header and every row");
      for (int i = 0; i < rows.size(); i++) {
        List<String> shown = cells(rows.get(i));
        List<String> csv = records.get(i + 1).toList();
        for (int j = 0; j < shown.size(); j++) {
          String expected = shown.get(j).equals(FORMULA) ? "'" + FORMULA : shown.get(j);
          assertEquals(expected, csv.get(j), table + " row " + i + " column " + j);
        }
      }
      if (table.equals("below-table")) {
        assertEquals(
            List.of("VaR limit", "Limit usage"),
            records.get(0).toList().subList(8, 10),
            "the limit columns in the CSV");
        assertEquals(
            List.of(money(2 * varOn(DESK, DAY)), "50.0%"),
            records.get(1).toList().subList(8, 10),
            "the desk's limit and usage");
      }
      if (table.equals("positions-table")) {
        assertTrue(body.contains("\"P,\"\"q\"\"\""), "a comma and quotes quoted: " + body);
        assertTrue(body.contains(",-50.00,"), "a loss stays a number: " + body);
      }
    }
    browser.logOut();
    browser.logIn(WebTestServer.BOB);
    browser.open("/risk?date=" + DAY);
    browser.await("#dashboard-table-empty", 20);
    browser.shot("bob-sees-nothing");
  }
}
