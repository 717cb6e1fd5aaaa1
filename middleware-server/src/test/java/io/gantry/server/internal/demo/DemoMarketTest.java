package io.gantry.server.internal.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo bank's data (docs/sample-var-job.md): its hierarchy, currencies and FX quotes, six years
 * of fat-tailed, volatility-clustering history with a crisis and negative EUR rates, the book as of
 * each business date, the desks' P&L series, and the upgrade of a version 1 database.
 */
class DemoMarketTest {
  @TempDir static Path shared;
  static DemoMarket market;
  static long generationMillis;

  @TempDir Path dir;

  @BeforeAll
  static void create() throws Exception {
    market = new DemoMarket(shared, 2000);
    long start = System.nanoTime();
    assertTrue(market.createIfMissing());
    generationMillis = (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void isGeneratedInSecondsOnceAndKeptOnTheNextStart() throws Exception {
    System.out.println("demo market (2000 positions) generated in " + generationMillis + " ms");
    assertTrue(
        generationMillis < 60_000 * Math.max(1, scale()), "generation took " + generationMillis);
    assertFalse(market.createIfMissing(), "a second start must keep the existing database");
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertEquals(3, count(s, "select max(version) from demo_schema_version"));
      try (ResultSet rs =
          s.executeQuery(
              "select name, value from var_run_parameter "
                  + "where run_name = 'daily' and name = 'scenarios'")) {
        assertTrue(rs.next());
        assertEquals("name", rs.getMetaData().getColumnLabel(1), "labels are lower case");
      }
    }
  }

  @Test
  void aBankOfTwoLegalEntitiesAndDesksInThreeCurrencies() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertEquals(
          List.of("BANK"), column(s, "select node from hierarchy_node where parent is null"));
      assertEquals(
          List.of("BANK/GANTRY-EU", "BANK/GANTRY-US"),
          column(
              s, "select node from hierarchy_node where node_kind = 'legal-entity' order by node"));
      assertTrue(count(s, "select count(*) from hierarchy_node where node_kind = 'desk'") >= 4);
      assertEquals(
          List.of("EUR", "JPY", "USD"),
          column(s, "select distinct currency from portfolio order by currency"));
      assertEquals(
          0,
          count(
              s,
              "select count(*) from portfolio p join hierarchy_node n on n.node = p.node"
                  + " where n.node_kind <> 'desk'"),
          "every book is a desk");
      // every node's ancestors are exactly the prefixes of its path, itself included
      try (ResultSet rs = s.executeQuery("select ancestor, node from node_ancestor")) {
        int pairs = 0;
        while (rs.next()) {
          String ancestor = rs.getString(1);
          String node = rs.getString(2);
          assertTrue(
              node.equals(ancestor) || node.startsWith(ancestor + "/"), ancestor + " " + node);
          pairs++;
        }
        assertEquals(
            count(
                s,
                "select sum(length(node) - length(replace(node, '/', '')) + 1) from hierarchy_node"),
            pairs);
      }
      // a position's node path: BANK/<entity>/<business line>/<desk>
      for (String node :
          column(
              s,
              "select distinct f.node from position p join portfolio f"
                  + " on f.portfolio_id = p.portfolio_id order by f.node")) {
        assertTrue(node.matches("BANK/GANTRY-(US|EU)/[A-Z]+/[A-Z0-9-]+"), node);
      }
    }
  }

  @Test
  void fxIsQuotedAsMarketsQuoteItAndEveryPositionNamesItsFactors() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertEquals(
          List.of("EURUSD USD", "GBPUSD USD", "USDJPY JPY"),
          column(
              s,
              "select quote || ' ' || currency from risk_factor where kind = 'fx' order by quote"));
      assertTrue(
          level(s, "FX-USDJPY", "2026-11-20") > 50 && level(s, "FX-EURUSD", "2026-11-20") < 3,
          "JPY per USD, USD per EUR");
      assertEquals(
          0,
          count(
              s,
              "select count(*) from risk_factor where kind = 'rate'"
                  + " and (curve is null or tenor_years is null or return_type <> 'absolute')"));
      assertTrue(count(s, "select count(distinct curve) from risk_factor") >= 3);
      assertEquals(
          0,
          count(
              s,
              "select count(*) from position where instrument in ('call', 'put')"
                  + " and (vol_factor_id is null or rate_factor_id is null or strike is null)"),
          "every option has its implied-vol factor");
      assertTrue(
          count(
                  s,
                  "select count(*) from position p join risk_factor f on f.factor_id = p.factor_id"
                      + " where p.instrument in ('call', 'put') and f.kind = 'fx'"
                      + " and p.foreign_rate_factor_id is not null")
              > 0,
          "FX options with their foreign rate");
      assertTrue(
          count(s, "select count(*) from position where instrument = 'zcb' and curve is not null")
              > 0);
      assertTrue(count(s, "select count(*) from position where instrument = 'fx-forward'") > 0);
      assertTrue(count(s, "select count(*) from position where instrument = 'cash'") > 0);
      // the instrument's natural currency (contract: position.currency must agree with it)
      assertEquals(
          0,
          count(
              s,
              "select count(*) from position p join risk_factor f on f.factor_id = p.factor_id"
                  + " where p.currency <> f.currency"));
      assertEquals(
          0,
          count(s, "select count(*) from position where instrument = 'zcb' and currency <> curve"));
      // the view the sample's factor list comes from: every factor a position needs exists
      assertTrue(count(s, "select count(distinct factor_id) from position_factor") > 40);
    }
  }

  @Test
  void sixYearsOfBusinessDaysWithEveryFactorOnEveryDay() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      long factors = count(s, "select count(*) from risk_factor");
      long days = count(s, "select count(distinct as_of) from factor_history");
      assertEquals(6 * 261, days);
      assertEquals(factors * days, count(s, "select count(*) from factor_history"));
      List<String> range =
          column(
              s,
              "select cast(min(as_of) as varchar) || ' ' || cast(max(as_of) as varchar) from factor_history");
      String[] ends = range.get(0).split(" ");
      assertEquals("2026-11-20", ends[1]);
      assertTrue(LocalDate.parse(ends[0]).isBefore(LocalDate.of(2020, 12, 31)), range.toString());
      for (String d :
          column(
              s,
              "select cast(as_of as varchar) from factor_history where factor_id = 'EQ-US-01'")) {
        int dow = LocalDate.parse(d).getDayOfWeek().getValue();
        assertTrue(dow <= 5, "a weekend in the history: " + d);
      }
    }
  }

  @Test
  void eurRatesWereNegativeForAPeriodAndArePositiveToday() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      long negativeDays =
          count(
              s, "select count(*) from factor_history where factor_id = 'IR-EUR-1Y' and level < 0");
      assertTrue(negativeDays > 250, "a year or more of negative EUR rates: " + negativeDays);
      assertTrue(level(s, "IR-EUR-1Y", "2021-06-01") < 0);
      assertTrue(level(s, "IR-EUR-1Y", "2026-11-20") > 0);
    }
  }

  @Test
  void returnsAreFatTailedClusteredAndWildestInTheCrisis() throws Exception {
    List<Double> calm = new ArrayList<>();
    List<Double> crisis = new ArrayList<>();
    List<Double> all = new ArrayList<>();
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String eq : column(s, "select factor_id from risk_factor where kind = 'equity'")) {
        double[] r = logReturns(s, eq);
        List<String> dates =
            column(
                s,
                "select cast(as_of as varchar) from factor_history where factor_id = '"
                    + eq
                    + "' order by as_of");
        double sd = Math.sqrt(moment(toList(r), 2));
        for (int i = 0; i < r.length; i++) {
          LocalDate day = LocalDate.parse(dates.get(i + 1));
          boolean inCrisis =
              !day.isBefore(DemoMarketHistory.CRISIS_FROM)
                  && !day.isAfter(DemoMarketHistory.CRISIS_TO);
          (inCrisis ? crisis : calm).add(r[i] / sd);
          all.add(r[i] / sd);
        }
      }
    }
    double kurtosis = moment(all, 4) / Math.pow(moment(all, 2), 2);
    assertTrue(kurtosis > 4.5, "fat tails: kurtosis " + kurtosis + " (normal: 3)");
    double crisisSd = Math.sqrt(moment(crisis, 2));
    double calmSd = Math.sqrt(moment(calm, 2));
    assertTrue(crisisSd > 2 * calmSd, "the crisis: " + crisisSd + " against " + calmSd);
    // volatility clustering: squared moves are autocorrelated (GARCH), returns hardly
    assertTrue(autocorrelation(calm, true) > 0.05, "squared returns autocorrelated");
  }

  @Test
  void eachBusinessDateHasItsOwnBookAndLevels() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      List<String> dates =
          column(s, "select distinct cast(business_date as varchar) from position order by 1");
      assertEquals(DemoBook.BOOK_DAYS, dates.size());
      assertEquals("2026-11-20", dates.get(dates.size() - 1));
      Set<String> today = new HashSet<>(ids(s, "2026-11-20"));
      Set<String> earlier = new HashSet<>(ids(s, dates.get(0)));
      assertTrue(
          count(s, "select count(*) from position where business_date = date '2026-11-20'") > 1500);
      assertFalse(today.equals(earlier), "trades opened and closed in between");
      assertFalse(today.containsAll(earlier), "a position closed since");
      assertFalse(earlier.containsAll(today), "a position opened since");
      // one position's time to maturity is counted from each date
      try (ResultSet rs =
          s.executeQuery(
              "select a.maturity_years - b.maturity_years from position a join position b"
                  + " on a.position_id = b.position_id where a.business_date = date '2026-11-19'"
                  + " and b.business_date = date '2026-11-20' and a.instrument = 'zcb'")) {
        assertTrue(rs.next());
        assertEquals(1 / 365.0, rs.getDouble(1), 1e-6);
      }
      assertTrue(
          level(s, "EQ-US-01", "2026-11-19") != level(s, "EQ-US-01", "2026-11-20"),
          "each date's close");
    }
  }

  @Test
  void everyDeskHasAYearOfHypotheticalPnl() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertEquals(
          List.of(String.valueOf(DemoMarket.PNL_DAYS)),
          column(s, "select distinct cast(count(*) as varchar) from desk_pnl group by node"));
      assertEquals(
          count(s, "select count(*) from hierarchy_node where node_kind = 'desk'"),
          count(s, "select count(distinct node) from desk_pnl"));
      assertEquals(0, count(s, "select count(*) from desk_pnl where hypothetical_pnl = 0"));
      assertEquals(
          "2026-11-20",
          column(s, "select cast(max(business_date) as varchar) from desk_pnl").get(0));
    }
  }

  /**
   * An upgrade generates the market tables again, as a first start does: the upgraded database and
   * a fresh one of the same size hold the same data: two generations of the same size, one fewer
   * than an upgrade and two fresh databases (each takes ten seconds and more on a busy machine).
   */
  @Test
  void aVersionOneDatabaseIsUpgradedKeepingItsResultsAndSameSizeGivesTheSameData()
      throws Exception {
    DemoMarket old = new DemoMarket(dir.resolve("old"), 20);
    try (Connection c = DriverManager.getConnection(old.jdbcUrl(), "sa", "");
        Statement s = c.createStatement()) {
      s.execute(
          "create table risk_factor (factor_id varchar(32) primary key, kind varchar(16), level decimal(20,10))");
      s.execute("create table portfolio (portfolio_id varchar(32) primary key, name varchar(200))");
      s.execute(
          "create table position (position_id varchar(32) primary key, portfolio_id varchar(32)"
              + " references portfolio(portfolio_id), instrument varchar(16))");
      s.execute(
          "create table var_summary (run_id varchar(64) not null, confidence decimal(8,6) not null,"
              + " var double precision not null, expected_shortfall double precision not null,"
              + " pnl_mean double precision not null, pnl_stddev double precision not null,"
              + " scenarios bigint not null, primary key (run_id, confidence))");
      s.execute("insert into var_summary values ('job-1', 0.99, 1, 2, 0, 1, 50000)");
    }
    assertTrue(old.createIfMissing(), "upgraded");
    assertFalse(old.createIfMissing());
    try (Connection c = DriverManager.getConnection(old.jdbcUrl(), "sa", "");
        Statement s = c.createStatement()) {
      assertEquals(1, count(s, "select count(*) from var_summary where run_id = 'job-1'"));
      assertTrue(
          count(s, "select count(*) from position where business_date = date '2026-11-20'") > 0);
      assertEquals(0, count(s, "select count(*) from var_node_summary"));
    }
    DemoMarket fresh = new DemoMarket(dir.resolve("fresh"), 20);
    assertTrue(fresh.createIfMissing());
    assertEquals(checksum(fresh), checksum(old), "same size gives the same data");
  }

  private static List<String> ids(Statement s, String date) throws Exception {
    return column(s, "select position_id from position where business_date = date '" + date + "'");
  }

  private static double[] logReturns(Statement s, String factor) throws Exception {
    List<Double> levels = new ArrayList<>();
    try (ResultSet rs =
        s.executeQuery(
            "select level from factor_history where factor_id = '" + factor + "' order by as_of")) {
      while (rs.next()) {
        levels.add(rs.getDouble(1));
      }
    }
    double[] r = new double[levels.size() - 1];
    for (int i = 0; i < r.length; i++) {
      r[i] = Math.log(levels.get(i + 1) / levels.get(i));
    }
    return r;
  }

  private static List<Double> toList(double[] values) {
    List<Double> list = new ArrayList<>();
    for (double v : values) {
      list.add(v);
    }
    return list;
  }

  /** The k-th central moment. */
  private static double moment(List<Double> x, int k) {
    double mean = x.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    return x.stream().mapToDouble(v -> Math.pow(v - mean, k)).average().orElseThrow();
  }

  /** Lag-1 autocorrelation of the values (of their squares when {@code squared}). */
  private static double autocorrelation(List<Double> x, boolean squared) {
    List<Double> v = x.stream().map(a -> squared ? a * a : a).toList();
    double mean = v.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double num = 0;
    double den = 0;
    for (int i = 0; i < v.size(); i++) {
      den += (v.get(i) - mean) * (v.get(i) - mean);
      if (i > 0) {
        num += (v.get(i) - mean) * (v.get(i - 1) - mean);
      }
    }
    return num / den;
  }

  private static double level(Statement s, String factor, String date) throws Exception {
    try (ResultSet rs =
        s.executeQuery(
            "select level from factor_history where factor_id = '"
                + factor
                + "' and as_of = date '"
                + date
                + "'")) {
      assertTrue(rs.next(), factor + " on " + date);
      return rs.getDouble(1);
    }
  }

  private static Connection connect() throws Exception {
    return DriverManager.getConnection(market.jdbcUrl(), "sa", "");
  }

  private static String checksum(DemoMarket m) throws Exception {
    try (Connection c = DriverManager.getConnection(m.jdbcUrl(), "sa", "");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "select sum(quantity), sum(coalesce(strike, 0)), "
                    + "(select sum(level) from factor_history),"
                    + " (select sum(hypothetical_pnl) from desk_pnl) from position")) {
      rs.next();
      return rs.getString(1)
          + "/"
          + rs.getString(2)
          + "/"
          + rs.getString(3)
          + "/"
          + rs.getString(4);
    }
  }

  private static List<String> column(Statement s, String sql) throws Exception {
    List<String> values = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  private static long count(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static double scale() {
    String s = System.getenv("GANTRY_TEST_TIMEOUT_SCALE");
    return s == null ? 1 : Double.parseDouble(s);
  }
}
