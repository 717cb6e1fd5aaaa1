package io.gantry.cli;

import static io.gantry.cli.CliServers.ALICE;
import static io.gantry.cli.CliServers.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.cli.GantryRun.Result;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.internal.security.TlsKeystore;
import io.gantry.soap.SoapContract;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry var summary|history|backtest|explain|limits} over SOAP against a real server whose
 * results data source is the demo database, with VaR runs written into its result tables before the
 * server starts (as nightly jobs' stage-out leaves them): a rerun on the earlier date supersedes
 * the first run; position contributions for the explain and VaR limits beside them. The results
 * data source is a second name for the demo database that only alice may use, so bob, who may not,
 * sees nothing.
 */
@ExtendWith(VarCommandTest.ResultsServer.class)
class VarCommandTest {
  static final LocalDate DAY = DemoMarket.LAST_BUSINESS_DATE;
  static final LocalDate EVE = DAY.minusDays(1);
  static final String EU = "BANK/GANTRY-EU";
  static final int POSITIONS = 20;
  static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  static final Path NODE_PROGRAMS = REPOSITORY.resolve("node-programs/build");

  /** The back-filled nights: four weeks around the start of the demo market's crisis. */
  static final LocalDate BACKFILL_FROM = LocalDate.of(2023, 2, 27);

  static final LocalDate BACKFILL_TO = LocalDate.of(2023, 3, 24);
  static final int BACKFILL_NIGHTS = 20;

  /** TLS, alice and bob, the demo market with three VaR runs; results from 'desk-results'. */
  static final class ResultsServer extends CliServers.Resolver {
    ResultsServer() {
      super("cli-var", VarCommandTest::server);
    }
  }

  private static io.gantry.testing.server.GantryTestServerBuilder server(Path dir) {
    Path dataDir = dir.resolve("server");
    DemoMarket market = new DemoMarket(dataDir.resolve("demo"), POSITIONS);
    try {
      market.createIfMissing();
      try (Connection c = DriverManager.getConnection(market.jdbcUrl(), "sa", "")) {
        run(c, "run-a", EVE, "2026-01-01T06:00:00Z", 100);
        run(c, "run-b", EVE, "2026-01-01T07:00:00Z", 200); // the rerun
        run(c, "run-c", DAY, "2026-01-02T06:00:00Z", 300);
        try (java.sql.Statement st = c.createStatement()) {
          for (String ddl : DemoMarket.BACKTEST_TABLES) {
            st.execute(ddl);
          }
        }
        backtest(c, "bt-1", "2026-01-02T08:00:00Z", 2, "green");
        backtest(c, "bt-2", "2026-01-02T09:00:00Z", 6, "yellow"); // the rerun
        explainBooks(c);
        limit(c, "BANK", 250); // DAY's 300: a breach
        limit(c, EU, 200); // DAY's 150: 75%
      }
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
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path demo = dataDir.resolve("demo");
    return GantryTestServer.builder(dir)
        .dataDir(dataDir)
        .secure()
        .demo(POSITIONS)
        .account(TestAccount.user(ALICE))
        .account(TestAccount.user(BOB))
        .settings(
            Map.of(
                "risk.results-data-sources",
                "desk-results",
                "datasource.desk-results.url",
                market.accountJdbcUrl(),
                "datasource.desk-results.user",
                DemoMarket.WRITER,
                "datasource.desk-results.password-file",
                demo.resolve(DemoMarket.WRITER + ".password").toString(),
                "datasource.desk-results.users",
                ALICE,
                "datasource.desk-results.read-user",
                DemoMarket.READER,
                "datasource.desk-results.read-password-file",
                demo.resolve(DemoMarket.READER + ".password").toString(),
                // mcvar and var-backtest for the back-filled history (the jobs' PATH)
                "jobs.allowed-executable-roots",
                NODE_PROGRAMS.toString()));
  }

  /** A run's var_run row, its stage-out ledger entry, and 99% figures for BANK and EU. */
  private static void run(Connection c, String runId, LocalDate day, String staged, double var)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_run (run_id, business_date, method, horizon_days, scenarios, seed,"
                + " base_currency, confidence_levels, program_version)"
                + " values (?, ?, 'mc-normal', 1, 1000, 1, 'USD', '0.99', 'test')")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
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
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_node_summary (run_id, business_date, node, confidence, var,"
                + " expected_shortfall, pnl_mean, pnl_stddev, scenarios)"
                + " values (?, ?, ?, 0.99, ?, ?, 0, 1, 1000)")) {
      for (String node : List.of("BANK", EU)) {
        double v = node.equals("BANK") ? var : var / 2;
        ps.setString(1, runId);
        ps.setObject(2, day);
        ps.setString(3, node);
        ps.setDouble(4, v);
        ps.setDouble(5, v * 1.25);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * The positions of the explain (docs/risk-view.md, "Explain"): quantity and marginal VaR of each
   * position in BANK on EVE (run-b, VaR 200) and DAY (run-c, VaR 300), three of them from the
   * demo's book of DAY (so they have a risk factor), one closed before DAY. Contributions q m.
   */
  static final Map<String, double[]> EVE_BOOK = new java.util.TreeMap<>();

  static final Map<String, double[]> DAY_BOOK = new java.util.TreeMap<>();

  private static void explainBooks(Connection c) throws SQLException {
    List<String> ids = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select position_id from position where business_date = ? order by position_id")) {
      ps.setObject(1, DAY);
      try (var rs = ps.executeQuery()) {
        while (rs.next() && ids.size() < 3) {
          ids.add(rs.getString(1));
        }
      }
    }
    EVE_BOOK.put(ids.get(0), new double[] {10, 8}); // held, more of it and riskier
    DAY_BOOK.put(ids.get(0), new double[] {12, 9});
    EVE_BOOK.put(ids.get(1), new double[] {-5, -10}); // held, the market moved
    DAY_BOOK.put(ids.get(1), new double[] {-5, -14});
    EVE_BOOK.put("CLOSED-1", new double[] {7, 10}); // matured
    DAY_BOOK.put(ids.get(2), new double[] {4, 30}); // new
    contributions(c, "run-b", EVE, EVE_BOOK);
    contributions(c, "run-c", DAY, DAY_BOOK);
  }

  private static void contributions(
      Connection c, String runId, LocalDate day, Map<String, double[]> book) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_position_contribution (run_id, business_date, node, position_id,"
                + " confidence, var_contribution, es_contribution, marginal_var)"
                + " values (?, ?, 'BANK', ?, 0.99, ?, 0, ?)")) {
      for (Map.Entry<String, double[]> p : book.entrySet()) {
        ps.setString(1, runId);
        ps.setObject(2, day);
        ps.setString(3, p.getKey());
        ps.setDouble(4, p.getValue()[0] * p.getValue()[1]);
        ps.setDouble(5, p.getValue()[1]);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** A 99% VaR limit of {@code node} in force from DAY. */
  private static void limit(Connection c, String node, double limit) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_limit (node, confidence, var_limit, valid_from)"
                + " values (?, 0.99, ?, ?)")) {
      ps.setString(1, node);
      ps.setDouble(2, limit);
      ps.setObject(3, DAY);
      ps.executeUpdate();
    }
  }

  /**
   * A backtest of BANK on DAY: its summary row, one listed exception (EVE's VaR of 100 against
   * DAY's loss of 150) and its stage-out ledger entry.
   */
  private static void backtest(
      Connection c, String runId, String staged, int exceptions, String zone) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into backtest_summary (run_id, business_date, node, confidence, pnl_type,"
                + " window_days, observations, exceptions, expected_exceptions, zone,"
                + " kupiec_p_value, first_date, last_date)"
                + " values (?, ?, 'BANK', 0.99, 'hypothetical', 250, 250, ?, 2.5, ?, 0.0625, ?, ?)")) {
      ps.setString(1, runId);
      ps.setObject(2, DAY);
      ps.setInt(3, exceptions);
      ps.setString(4, zone);
      ps.setObject(5, DAY.minusDays(360));
      ps.setObject(6, DAY);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into backtest_exceptions (run_id, business_date, node, confidence, pnl_type,"
                + " var_date, pnl_date, var, pnl)"
                + " values (?, ?, 'BANK', 0.99, 'hypothetical', ?, ?, 100, -150)")) {
      ps.setString(1, runId);
      ps.setObject(2, DAY);
      ps.setObject(3, EVE);
      ps.setObject(4, DAY);
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
  void theBacktestOfTheLatestDateInAllThreeFormats(GantryTestServer s) throws IOException {
    Result table = CliServers.as(s, ALICE).run("var", "backtest", "--node", "BANK");
    assertEquals(0, table.exitCode(), table.toString());
    List<String> lines = table.out().lines().toList();
    assertEquals(3, lines.size(), table.out());
    assertTrue(lines.get(0).startsWith("DATE "), table.out());
    assertTrue(
        lines.stream()
            .anyMatch(
                l ->
                    l.matches(
                        DAY
                            + " +BANK +0\\.99 +hypothetical +250 +6 +2\\.500 +yellow +0\\.06250 .* bt-2 +current")),
        table.out());
    assertTrue(lines.stream().anyMatch(l -> l.matches(".* green .* bt-1 +bt-2")), table.out());

    Result json =
        CliServers.as(s, ALICE)
            .run(
                "--json",
                "var",
                "backtest",
                "--node",
                "BANK",
                "--date",
                DAY.toString(),
                "--current");
    assertEquals(0, json.exitCode(), json.toString());
    JsonNode backtests = new ObjectMapper().readTree(json.out()).get("backtests");
    assertEquals(1, backtests.size(), json.out());
    assertEquals("yellow", backtests.get(0).get("zone").asText());
    assertEquals(6, backtests.get(0).get("exceptions").asInt());
    assertEquals(DAY.minusDays(360).toString(), backtests.get(0).get("firstDate").asText());
    assertTrue(backtests.get(0).get("conditionalCoveragePValue").isNull(), json.out());

    Result csv = CliServers.as(s, ALICE).run("var", "backtest", "--node", "BANK", "--csv");
    List<CSVRecord> records =
        CSVFormat.RFC4180
            .builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .get()
            .parse(new StringReader(csv.out()))
            .getRecords();
    assertEquals(VarBacktestCommand.COLUMNS, records.get(0).getParser().getHeaderNames());
    assertEquals(
        List.of("bt-1", "bt-2"), records.stream().map(r -> r.get("runId")).sorted().toList());

    assertEquals(
        new Result(0, "no backtests (you see only the results data sources you may use)\n", ""),
        CliServers.as(s, BOB).run("var", "backtest", "--node", "BANK"));

    Result listed =
        CliServers.as(s, ALICE).run("var", "backtest", "--node", "BANK", "--exceptions");
    assertEquals(0, listed.exitCode(), listed.toString());
    assertTrue(
        listed.out().lines().findFirst().orElseThrow().startsWith("DATE ")
            && listed
                .out()
                .lines()
                .anyMatch(
                    l ->
                        l.matches(
                            DAY
                                + " +BANK +0\\.99 +hypothetical +"
                                + EVE
                                + " +"
                                + DAY
                                + " +100\\.00 +-150\\.00 +bt-2 +current"))
            && listed.out().lines().anyMatch(l -> l.matches(".* bt-1 +bt-2")),
        listed.out());
    Result currentCsv =
        CliServers.as(s, ALICE)
            .run("var", "backtest", "--node", "BANK", "--exceptions", "--current", "--csv");
    List<CSVRecord> rows =
        CSVFormat.RFC4180
            .builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .get()
            .parse(new StringReader(currentCsv.out()))
            .getRecords();
    assertEquals(VarBacktestExceptions.COLUMNS, rows.get(0).getParser().getHeaderNames());
    assertEquals(1, rows.size(), currentCsv.out());
    assertEquals(EVE.toString(), rows.get(0).get("varDate"));
    assertEquals(
        new Result(
            0, "no backtest exceptions (you see only the results data sources you may use)\n", ""),
        CliServers.as(s, BOB).run("var", "backtest", "--node", "BANK", "--exceptions"));
  }

  @Test
  void theSummaryIsATableOfEveryRunWithTheSupersededOnesNamingTheirRerun(GantryTestServer s) {
    Result table = CliServers.as(s, ALICE).run("var", "summary", "--date", EVE.toString());
    assertEquals(0, table.exitCode(), table.toString());
    List<String> lines = table.out().lines().toList();
    assertTrue(lines.get(0).matches("DATE +NODE +CONF +METHOD +VAR +ES +RUN .*"), table.out());
    assertEquals(5, lines.size(), "a header and two runs of two nodes:\n" + table.out());
    assertTrue(
        lines.stream()
            .anyMatch(
                l ->
                    l.matches(
                        EVE + " +BANK +0\\.99 +mc-normal +100\\.00 +125\\.00 +run-a .* run-b")),
        table.out());
    assertTrue(
        lines.stream()
            .anyMatch(
                l ->
                    l.matches(
                        EVE + " +BANK +0\\.99 +mc-normal +200\\.00 +250\\.00 +run-b .* current")),
        table.out());

    Result eu =
        CliServers.as(s, ALICE)
            .run("var", "summary", "--date", DAY.toString(), "--node", EU, "--current");
    assertEquals(2, eu.out().lines().count(), eu.toString());
    assertTrue(eu.out().contains("150.00"), eu.toString());
  }

  @Test
  void theSummaryAsJsonCarriesEveryField(GantryTestServer s) throws IOException {
    Result json =
        CliServers.as(s, ALICE)
            .run("--json", "var", "summary", "--date", EVE.toString(), "--node", EU);
    assertEquals(0, json.exitCode(), json.toString());
    JsonNode figures = new ObjectMapper().readTree(json.out()).get("figures");
    assertEquals(2, figures.size(), json.out());
    JsonNode first =
        figures.get(0).get("runId").asText().equals("run-a") ? figures.get(0) : figures.get(1);
    assertEquals(EVE.toString(), first.get("businessDate").asText());
    assertEquals(EU, first.get("node").asText());
    assertEquals(0.99, first.get("confidence").asDouble(), 1e-12);
    assertEquals("mc-normal", first.get("method").asText());
    assertEquals(50.0, first.get("var").asDouble(), 1e-9);
    assertEquals(62.5, first.get("expectedShortfall").asDouble(), 1e-9);
    assertEquals(1000, first.get("scenarios").asLong());
    assertEquals(1, first.get("horizonDays").asInt());
    assertEquals("2026-01-01T06:00:00Z", first.get("stagedOutAt").asText());
    assertEquals("run-b", first.get("supersededBy").asText());
    assertEquals("desk-results", first.get("dataSource").asText());
  }

  @Test
  void theHistoryAsCsvHasAHeaderAndOneRecordAFigure(GantryTestServer s) throws IOException {
    Result csv =
        CliServers.as(s, ALICE)
            .run(
                "var",
                "history",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString(),
                "--csv");
    assertEquals(0, csv.exitCode(), csv.toString());
    List<CSVRecord> records =
        CSVFormat.RFC4180
            .builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .get()
            .parse(new StringReader(csv.out()))
            .getRecords();
    assertEquals(VarFigures.COLUMNS, records.get(0).getParser().getHeaderNames());
    assertEquals(
        List.of("run-a", "run-b", "run-c"),
        records.stream().map(r -> r.get("runId")).sorted().toList(),
        "BANK alone, not the nodes below it:\n" + csv.out());
    records.forEach(r -> assertEquals("BANK", r.get("node")));
    Result current =
        CliServers.as(s, ALICE)
            .run(
                "var",
                "history",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString(),
                "--csv",
                "--current");
    assertEquals(3, current.out().lines().count(), "a header and runs b and c:\n" + current);
  }

  /**
   * The demo's history made as scripts/run-sample makes its year (README, "A year of VaR history"),
   * shortened to four weeks: {@code gantry var backfill} runs the history template's real mcvar job
   * each night, the results history then holds one current run a night, and the backtest job over
   * those nights gives each node a traffic light.
   */
  @Test
  void aBackfilledHistoryIsInTheResultsHistoryAndItsBacktestGivesATrafficLight(GantryTestServer s)
      throws IOException {
    Result backfill =
        CliServers.as(s, ALICE)
            .run(
                "var",
                "backfill",
                REPOSITORY.resolve("jsdl-schema/examples/var-history.jsdl").toString(),
                "--from",
                BACKFILL_FROM.toString(),
                "--to",
                BACKFILL_TO.toString(),
                "--set",
                "scenarios=500");
    assertEquals(0, backfill.exitCode(), backfill.toString());
    assertTrue(
        backfill.out().contains(BACKFILL_NIGHTS + " of " + BACKFILL_NIGHTS + " nights SUCCEEDED"),
        backfill.toString());

    Result history =
        CliServers.as(s, ALICE)
            .run(
                "--json",
                "var",
                "history",
                "--node",
                "BANK",
                "--from",
                BACKFILL_FROM.toString(),
                "--to",
                BACKFILL_TO.toString(),
                "--current");
    JsonNode figures = new ObjectMapper().readTree(history.out()).get("figures");
    assertEquals(2 * BACKFILL_NIGHTS, figures.size(), "a night at 95% and 99%: " + history);
    for (JsonNode f : figures) {
      assertEquals(500, f.get("scenarios").asLong(), f.toString());
      assertTrue(f.get("var").asDouble() > 0, f.toString());
    }

    Result backtest =
        CliServers.as(s, ALICE)
            .run(
                "submit",
                "--wait",
                REPOSITORY.resolve("jsdl-schema/examples/var-backtest.jsdl").toString(),
                "--set",
                "business_date=" + BACKFILL_TO,
                "--set",
                "window_days=" + BACKFILL_NIGHTS);
    assertEquals(0, backtest.exitCode(), backtest.toString());
    Result verdict =
        CliServers.as(s, ALICE)
            .run("--json", "var", "backtest", "--node", "BANK", "--date", BACKFILL_TO.toString());
    JsonNode backtests = new ObjectMapper().readTree(verdict.out()).get("backtests");
    assertEquals(2, backtests.size(), "95% and 99%, hypothetical P&L: " + verdict);
    Map<String, Double> varOf = new java.util.HashMap<>(); // date and confidence: the night's VaR
    for (JsonNode f : figures) {
      varOf.put(
          f.get("businessDate").asText() + " " + f.get("confidence").decimalValue().doubleValue(),
          f.get("var").asDouble());
    }
    Result listed =
        CliServers.as(s, ALICE)
            .run(
                "--json",
                "var",
                "backtest",
                "--node",
                "BANK",
                "--date",
                BACKFILL_TO.toString(),
                "--exceptions");
    JsonNode exceptions = new ObjectMapper().readTree(listed.out()).get("exceptions");
    for (JsonNode b : backtests) {
      // the first night's VaR is the second P&L date's: the window's first P&L has none
      assertEquals(BACKFILL_NIGHTS - 1, b.get("observations").asInt(), b.toString());
      assertTrue(b.get("zone").asText().matches("green|yellow|red"), b.toString());
      double confidence = b.get("confidence").decimalValue().doubleValue();
      int count = 0;
      for (JsonNode e : exceptions) {
        if (e.get("confidence").decimalValue().doubleValue() != confidence) {
          continue;
        }
        count++;
        double nightVar = varOf.get(e.get("varDate").asText() + " " + confidence);
        assertEquals(nightVar, e.get("var").asDouble(), 1e-6 * nightVar, "that night's VaR: " + e);
        assertTrue(-e.get("pnl").asDouble() > nightVar, "a loss beyond it: " + e);
        assertTrue(
            e.get("pnlDate").asText().compareTo(e.get("varDate").asText()) > 0, e.toString());
      }
      assertEquals(b.get("exceptions").asInt(), count, "every exception listed: " + listed);
    }
  }

  @Test
  void aUserWhoMayNotUseTheResultsDataSourceSeesNothing(GantryTestServer s) {
    Result table = CliServers.as(s, BOB).run("var", "summary", "--date", EVE.toString());
    assertEquals(
        new Result(0, "no VaR figures (you see only the results data sources you may use)\n", ""),
        table);
    Result json =
        CliServers.as(s, BOB)
            .run(
                "--json",
                "var",
                "history",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString());
    assertEquals(0, json.exitCode(), json.toString());
    assertTrue(json.out().replaceAll("\\s", "").equals("{\"figures\":[]}"), json.toString());
  }

  @Test
  void aMalformedDateOrAReversedSpanIsRefusedNamingTheArgument(GantryTestServer s) {
    Result date = CliServers.as(s, ALICE).run("var", "summary", "--date", "20.11.2026");
    assertEquals(ExitCodes.USAGE_OR_IO, date.exitCode(), "a client fault: " + date);
    assertTrue(
        date.err()
            .contains("argument businessDate: '20.11.2026' is not a business date (YYYY-MM-DD)"),
        date.toString());
    Result span =
        CliServers.as(s, ALICE)
            .run(
                "var",
                "history",
                "--node",
                "BANK",
                "--from",
                DAY.toString(),
                "--to",
                EVE.toString());
    assertTrue(span.err().contains("argument to: the first business date"), span.toString());
  }

  @Test
  void theExplainsComponentsAreTheOnesRecomputedFromThePlantedBooks(GantryTestServer s)
      throws IOException {
    // the test's own attribution (docs/risk-view.md, "Explain") from the planted q and m
    double newPositions = 0;
    double matured = 0;
    double quantity = 0;
    double market = 0;
    for (Map.Entry<String, double[]> p : DAY_BOOK.entrySet()) {
      double[] before = EVE_BOOK.get(p.getKey());
      double[] after = p.getValue();
      if (before == null) {
        newPositions += after[0] * after[1];
      } else {
        quantity += (after[0] - before[0]) * before[1];
        market += after[0] * (after[1] - before[1]);
      }
    }
    for (Map.Entry<String, double[]> p : EVE_BOOK.entrySet()) {
      if (!DAY_BOOK.containsKey(p.getKey())) {
        matured -= p.getValue()[0] * p.getValue()[1];
      }
    }
    double residual = (300 - 200) - (newPositions + matured + quantity + market);

    Result json =
        CliServers.as(s, ALICE)
            .run(
                "--json",
                "var",
                "explain",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString());
    assertEquals(0, json.exitCode(), json.toString());
    JsonNode explains = new ObjectMapper().readTree(json.out()).get("explains");
    assertEquals(1, explains.size(), json.out());
    JsonNode e = explains.get(0);
    assertEquals("run-b", e.get("fromRunId").asText(), "EVE's current run");
    assertEquals("run-c", e.get("toRunId").asText());
    assertEquals(100.0, e.get("change").asDouble(), 1e-9);
    List<Double> expected = List.of(newPositions, matured, quantity, market, residual);
    JsonNode components = e.get("components");
    assertEquals(5, components.size(), json.out());
    double sum = 0;
    for (int i = 0; i < 5; i++) {
      assertEquals(expected.get(i), components.get(i).get("amount").asDouble(), 1e-9, json.out());
      sum += components.get(i).get("amount").asDouble();
    }
    assertEquals("residual/interaction", components.get(4).get("name").asText());
    assertEquals(100.0, sum, 1e-9, "the components add up to the change");
    assertEquals(4, e.get("positions").size(), json.out());
    JsonNode largest = e.get("positions").get(0);
    assertEquals("new", largest.get("status").asText(), "the new position moved it most");
    assertTrue(largest.get("factor").isTextual(), "a factor from the demo's book: " + largest);
    assertTrue(e.get("factors").size() >= 1, json.out());

    Result table =
        CliServers.as(s, ALICE)
            .run(
                "var",
                "explain",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString(),
                "--top",
                "2");
    assertEquals(0, table.exitCode(), table.toString());
    assertTrue(
        table.out().lines().anyMatch(l -> l.matches("residual/interaction +" + money(residual))),
        table.out());
    assertTrue(
        table.out().lines().anyMatch(l -> l.matches("new positions +120\\.00 +1")), table.out());
    assertTrue(table.out().lines().anyMatch(l -> l.matches("change +100\\.00")), table.out());

    Result csv =
        CliServers.as(s, ALICE)
            .run(
                "var",
                "explain",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString(),
                "--csv");
    List<CSVRecord> records =
        CSVFormat.RFC4180
            .builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .get()
            .parse(new StringReader(csv.out()))
            .getRecords();
    assertEquals(VarExplainCommand.COLUMNS, records.get(0).getParser().getHeaderNames());
    assertEquals(
        List.of(5L, 4L),
        List.of(
            records.stream().filter(r -> r.get("section").equals("component")).count(),
            records.stream().filter(r -> r.get("section").equals("position")).count()),
        csv.out());
    assertEquals(
        "no current VaR figures of BANK on both dates (you see only the results data sources you"
            + " may use)\n",
        CliServers.as(s, BOB)
            .run(
                "var",
                "explain",
                "--node",
                "BANK",
                "--from",
                EVE.toString(),
                "--to",
                DAY.toString())
            .out());
    Result desk =
        CliServers.as(s, ALICE)
            .run("var", "explain", "--node", EU, "--from", EVE.toString(), "--to", DAY.toString());
    assertEquals(ExitCodes.USAGE_OR_IO, desk.exitCode(), desk.toString());
    assertTrue(desk.err().contains("stored no position contributions to node " + EU), desk.err());
  }

  @Test
  void limitsShowUsageInTheSummaryAndTheBreachesInTheirListing(GantryTestServer s)
      throws IOException {
    Result summary =
        CliServers.as(s, ALICE).run("var", "summary", "--date", DAY.toString(), "--current");
    assertTrue(
        summary
            .out()
            .lines()
            .anyMatch(l -> l.matches(DAY + " +BANK .* current +250\\.00 +120\\.0%")),
        summary.out());
    assertTrue(
        summary.out().lines().anyMatch(l -> l.matches(DAY + " +" + EU + " .* +200\\.00 +75\\.0%")),
        summary.out());

    Result breaches =
        CliServers.as(s, ALICE).run("var", "limits", "--date", DAY.toString(), "--breaches");
    List<String> lines = breaches.out().lines().toList();
    assertEquals(2, lines.size(), "a header and BANK's breach:\n" + breaches);
    assertTrue(
        lines
            .get(1)
            .matches(
                DAY + " +BANK +0\\.99 +mc-normal +300\\.00 +250\\.00 +120\\.0% +BREACH +run-c"),
        breaches.out());

    Result json = CliServers.as(s, ALICE).run("--json", "var", "limits", "--date", DAY.toString());
    JsonNode limits = new ObjectMapper().readTree(json.out()).get("limits");
    assertEquals(2, limits.size(), json.out());
    for (JsonNode l : limits) {
      double var = l.get("var").asDouble();
      double limit = l.get("varLimit").asDouble();
      assertEquals(100 * var / limit, l.get("usagePercent").asDouble(), 1e-9);
      assertEquals(var > limit, l.get("breached").asBoolean(), l.toString());
      assertEquals(DAY.toString(), l.get("limitValidFrom").asText());
    }
    Result csv = CliServers.as(s, ALICE).run("var", "limits", "--date", DAY.toString(), "--csv");
    assertTrue(
        csv.out().startsWith(String.join(",", VarLimitsCommand.COLUMNS) + "\r\n")
            || csv.out().startsWith(String.join(",", VarLimitsCommand.COLUMNS) + "\n"),
        csv.out());
    assertEquals(3, csv.out().lines().count(), csv.out());
    assertEquals(
        "no VaR figures with a limit on "
            + EVE
            + " (you see only the results data sources you"
            + " may use)\n",
        CliServers.as(s, ALICE).run("var", "limits", "--date", EVE.toString()).out());
    assertEquals(
        "no VaR figures with a limit on "
            + DAY
            + " (you see only the results data sources you"
            + " may use)\n",
        CliServers.as(s, BOB).run("var", "limits", "--date", DAY.toString()).out());
  }

  private static String money(double amount) {
    return String.format(Locale.ROOT, "%,.2f", amount).replace(".", "\\.");
  }

  /**
   * zeep (scripts/soap-clients-venv installs it) calls getVarSummary and getVarHistory from the
   * published WSDL: cli/src/test/python/zeep_var.py says what it checks.
   */
  @Test
  void zeepReadsTheSameFiguresFromThePublishedWsdl(GantryTestServer s, @TempDir Path tmp)
      throws Exception {
    Path python = Path.of("..", ".venv-soap-clients", "bin", "python");
    assertTrue(
        Files.isExecutable(python),
        "zeep is not installed: run scripts/soap-clients-venv (scripts/test-all does)");
    Path wsdl = tmp.resolve("JobManagement.wsdl");
    try (InputStream in = SoapContract.wsdl().openStream()) {
      Files.copy(in, wsdl);
    }
    Path pem = Files.writeString(tmp.resolve("server.pem"), pemOf(s.dataDir().resolve("tls")));
    Path log = tmp.resolve("zeep.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                python.toString(),
                Path.of("src", "test", "python", "zeep_var.py").toString(),
                "--wsdl",
                wsdl.toString(),
                "--url",
                s.url(),
                "--cafile",
                pem.toString(),
                "--eve",
                EVE.toString(),
                "--day",
                DAY.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(
            k ->
                k.toLowerCase(Locale.ROOT).endsWith("_proxy")
                    || k.equals("REQUESTS_CA_BUNDLE")
                    || k.equals("CURL_CA_BUNDLE"));
    Process zeep = builder.start();
    try (OutputStream stdin = zeep.getOutputStream()) {
      String passwords = s.account(ALICE).password() + "\n" + s.account(BOB).password() + "\n";
      stdin.write(passwords.getBytes(StandardCharsets.UTF_8));
    }
    boolean ended = zeep.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      zeep.destroyForcibly().waitFor();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertTrue(ended, "zeep did not finish in 120 s:\n" + output);
    assertEquals(0, zeep.exitValue(), "zeep's checks failed:\n" + output);
  }

  /** The server's self-signed certificate as PEM: what a Python user is handed to trust. */
  private static String pemOf(Path tlsDirectory) throws Exception {
    TlsKeystore keystore = TlsKeystore.loadOrGenerate(tlsDirectory);
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore.file())) {
      store.load(in, keystore.password().toCharArray());
    }
    Certificate certificate = store.getCertificate(store.aliases().nextElement());
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }
}
