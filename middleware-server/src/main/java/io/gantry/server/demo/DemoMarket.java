package io.gantry.server.demo;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.storage.OwnerOnlyFiles;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The demo market database that the sample VaR job runs against: synthetic risk factors, two years
 * of daily history, one portfolio, run parameters and empty result tables (docs/sample-var-job.md).
 * Deterministic: the same size gives the same data on every machine.
 *
 * <p>History is generated backwards from today's levels with a one-factor model (a market shock
 * plus an independent one per factor), so factors are correlated the way real books are and the
 * covariance estimated by mcvar is positive definite.
 */
public final class DemoMarket {
  /** The name under which the server exposes this database as a data source. */
  public static final String DATA_SOURCE_NAME = "demo-market";

  public static final String PORTFOLIO_ID = "DESK-1";
  public static final String RUN_NAME = "daily";

  private static final LocalDate LAST_DAY = LocalDate.of(2026, 11, 20);
  private static final int HISTORY_DAYS = 2 * 261;
  private static final long SEED = 20261122L;

  /** The account stage-in reads with. */
  public static final String READER = "market_reader";

  /** The account stage-out writes with. */
  public static final String WRITER = "results_writer";

  private static final List<String> MARKET_TABLES =
      List.of("risk_factor", "factor_history", "portfolio", "position", "var_run_parameter");
  private static final List<String> RESULT_TABLES =
      List.of(
          "var_summary",
          "var_pnl_distribution",
          "var_contribution",
          "instrument_value",
          "gantry_stage_out_ledger");

  /**
   * The task-farm example's results (jsdl-schema/examples/price-instruments-farm.jsdl, one row per
   * position priced as its own task): created on every start, so a demo database from before the
   * example has it too.
   */
  private static final String INSTRUMENT_VALUE =
      "create table if not exists instrument_value (task_id int primary key,"
          + " position_id varchar(32), instrument varchar(16), quantity decimal(20,6),"
          + " spot decimal(20,10), rate decimal(20,10), strike decimal(20,10),"
          + " maturity_years decimal(12,6), volatility decimal(12,8), state varchar(16),"
          + " exit_code int, signal_number int, attempts int, launcher_host varchar(255),"
          + " started_at varchar(40), duration_ms decimal(14,3), value_today decimal(24,6))";

  /**
   * The staging gateway's stage-out ledger (StageOutLedger), made here since the writer may not
   * create tables.
   */
  private static final String LEDGER = io.gantry.staging.StageOutLedgerDdl.CREATE_TABLE;

  private final Path directory;
  private final int positions;

  public DemoMarket(Path directory, int positions) {
    if (positions < 1) {
      throw new IllegalArgumentException("demo portfolio needs at least 1 position: " + positions);
    }
    this.directory = directory;
    this.positions = positions;
  }

  /**
   * JDBC URL of the database. Lower-case identifiers make column labels the same as on PostgreSQL;
   * VALUE is a keyword in H2 but a column name here. The database lives inside the server's JVM, so
   * it must survive what the server survives: WRITE_DELAY=0 hands every commit to the operating
   * system at once (H2 otherwise holds it back up to 500 ms, and a kill -9 of the server would lose
   * results of a job already recorded as SUCCEEDED), and the retry: file system reopens the file
   * when a staging thread is interrupted mid-write by a cancel or kill, where H2 would otherwise
   * close the whole database. WRITE_DELAY is a persistent database setting that only an
   * administrator may give, so the accounts' URL ({@link #accountJdbcUrl}) leaves it out and {@link
   * #createIfMissing} stores it.
   */
  public String jdbcUrl() {
    return accountJdbcUrl() + ";WRITE_DELAY=0";
  }

  /** The URL the staging accounts connect with: the same database, no administrator setting. */
  public String accountJdbcUrl() {
    return "jdbc:h2:retry:file:"
        + directory.resolve("market").toAbsolutePath()
        + ";DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=VALUE";
  }

  /**
   * The demo as a named data source with least privilege: stage-in reads as {@link #READER} (SELECT
   * on the market tables only), stage-out writes as {@link #WRITER} (INSERT on the result tables
   * and the stage-out ledger only). Neither is an administrator, so H2's file, script and Java
   * functions (FILE_READ, CSVWRITE, CREATE ALIAS, ...) are refused to both even if a statement got
   * past the SQL checks. Call after {@link #createIfMissing}.
   */
  public NamedDataSource dataSource() {
    return new NamedDataSource(
        DATA_SOURCE_NAME,
        accountJdbcUrl(),
        WRITER,
        new PasswordSource.FromFile(passwordFile(WRITER)),
        Set.of(),
        new NamedDataSource.Account(READER, new PasswordSource.FromFile(passwordFile(READER))));
  }

  private Path passwordFile(String account) {
    return directory.resolve(account + ".password");
  }

  /**
   * Creates the two accounts if missing and sets their passwords from their owner-only files (made
   * with random passwords on first use), on every start: a database from before the accounts
   * existed gets them too.
   */
  private void ensureAccounts(Connection admin) throws SQLException {
    try (Statement s = admin.createStatement()) {
      s.execute("set write_delay 0"); // persistent: holds for the accounts' connections too
      s.execute(LEDGER);
      s.execute(INSTRUMENT_VALUE);
      for (String account : List.of(READER, WRITER)) {
        String password = password(passwordFile(account));
        s.execute("create user if not exists " + account + " password '" + password + "'");
        s.execute("alter user " + account + " set password '" + password + "'");
      }
      s.execute("grant select on table " + String.join(", ", MARKET_TABLES) + " to " + READER);
      s.execute("grant insert on table " + String.join(", ", RESULT_TABLES) + " to " + WRITER);
      s.execute("grant select on table gantry_stage_out_ledger to " + WRITER);
    }
  }

  /**
   * The password in {@code file}, made (24 random bytes, URL-safe Base64, mode 0600) if missing.
   */
  private static String password(Path file) {
    try {
      if (!Files.exists(file)) {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        OwnerOnlyFiles.createDirectories(file.getParent(), OwnerOnlyFiles.DIRECTORY_MODE);
        OwnerOnlyFiles.write(
            file,
            Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(random)
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      }
      String password = Files.readString(file).strip();
      if (!password.matches("[A-Za-z0-9_-]{16,}")) {
        throw new IllegalStateException(
            "demo database password file "
                + file
                + " is not one the server made;"
                + " delete it and restart");
      }
      return password;
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot make or read the demo database password file " + file, e);
    }
  }

  /** Creates and fills the database unless it already exists; returns true if it created it. */
  public boolean createIfMissing() throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl(), "sa", "")) {
      if (exists(c)) {
        ensureAccounts(c);
        return false;
      }
      c.setAutoCommit(false);
      try {
        createSchema(c);
        List<Factor> factors = factors();
        insertFactors(c, factors);
        insertHistory(c, factors);
        insertPortfolio(c, factors);
        insertRunParameters(c);
        c.commit();
        ensureAccounts(c);
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
      return true;
    }
  }

  private static boolean exists(Connection c) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    try (ResultSet rs = meta.getTables(null, null, "risk_factor", null)) {
      return rs.next();
    }
  }

  private static void createSchema(Connection c) throws SQLException {
    String script;
    try (InputStream in = DemoMarket.class.getResourceAsStream("market-schema.sql")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("demo market schema missing from the build", e);
    }
    try (Statement s = c.createStatement()) {
      for (String sql : script.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
    }
  }

  /** A risk factor with its level today, its daily volatility and its market beta. */
  private record Factor(String id, String kind, double level, double dailyVol, double beta) {}

  private static List<Factor> factors() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    List<Factor> factors = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      factors.add(
          new Factor(
              String.format("EQ%03d", i),
              "equity",
              20 + 280 * rnd.nextDouble(),
              0.010 + 0.012 * rnd.nextDouble(),
              0.6 + 0.6 * rnd.nextDouble()));
    }
    String[][] fx = {
      {"FX-EURUSD", "1.08"},
      {"FX-GBPUSD", "1.27"},
      {"FX-USDJPY", "151.2"},
      {"FX-USDCHF", "0.88"},
      {"FX-AUDUSD", "0.66"}
    };
    for (String[] pair : fx) {
      factors.add(
          new Factor(
              pair[0],
              "fx",
              Double.parseDouble(pair[1]),
              0.004 + 0.003 * rnd.nextDouble(),
              0.2 * rnd.nextDouble()));
    }
    String[] tenors = {"1Y", "2Y", "5Y", "10Y"};
    for (int i = 0; i < tenors.length; i++) {
      // Rates move in relative terms here (log changes of the rate), a few percent a day.
      factors.add(
          new Factor(
              "IR-USD-" + tenors[i],
              "rate",
              0.038 + 0.002 * i,
              0.02 + 0.01 * rnd.nextDouble(),
              -0.3 * rnd.nextDouble()));
    }
    return factors;
  }

  private static void insertFactors(Connection c, List<Factor> factors) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("insert into risk_factor(factor_id, kind, level) values (?, ?, ?)")) {
      for (Factor f : factors) {
        ps.setString(1, f.id());
        ps.setString(2, f.kind());
        ps.setBigDecimal(3, decimal(f.level(), 10));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void insertHistory(Connection c, List<Factor> factors) throws SQLException {
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    double[] level = factors.stream().mapToDouble(Factor::level).toArray();
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into factor_history(as_of, factor_id, level) values (?, ?, ?)")) {
      LocalDate day = LAST_DAY;
      for (int d = 0; d < HISTORY_DAYS; d++) {
        for (int i = 0; i < factors.size(); i++) {
          ps.setDate(1, Date.valueOf(day));
          ps.setString(2, factors.get(i).id());
          ps.setBigDecimal(3, decimal(level[i], 10));
          ps.addBatch();
        }
        ps.executeBatch();
        // step one business day back: undo one day's log return
        double market = gaussian(rnd) * 0.009;
        for (int i = 0; i < factors.size(); i++) {
          Factor f = factors.get(i);
          double own =
              Math.sqrt(
                  Math.max(
                      f.dailyVol() * f.dailyVol() - f.beta() * f.beta() * 0.009 * 0.009, 1e-6));
          level[i] /= Math.exp(f.beta() * market + own * gaussian(rnd));
        }
        day = previousBusinessDay(day);
      }
    }
  }

  private void insertPortfolio(Connection c, List<Factor> factors) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("insert into portfolio(portfolio_id, name) values (?, ?)")) {
      ps.setString(1, PORTFOLIO_ID);
      ps.setString(2, "Demo trading desk");
      ps.executeUpdate();
    }
    List<Factor> equities = factors.stream().filter(f -> f.kind().equals("equity")).toList();
    List<Factor> fx = factors.stream().filter(f -> f.kind().equals("fx")).toList();
    List<Factor> rates = factors.stream().filter(f -> f.kind().equals("rate")).toList();
    SplittableRandom rnd = new SplittableRandom(SEED + 2);
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into position(position_id, "
                + "portfolio_id, instrument, factor_id, rate_factor_id, quantity, strike, maturity_years, "
                + "volatility) values (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int p = 1; p <= positions; p++) {
        double u = rnd.nextDouble();
        Factor rate = rates.get(rnd.nextInt(rates.size()));
        ps.setString(1, String.format("P%07d", p));
        ps.setString(2, PORTFOLIO_ID);
        if (u < 0.6) { // equity spot
          Factor eq = equities.get(rnd.nextInt(equities.size()));
          position(ps, "spot", eq.id(), null, signedQuantity(rnd, 10, 2000), null, null, null);
        } else if (u < 0.7) { // fx spot
          Factor f = fx.get(rnd.nextInt(fx.size()));
          position(ps, "spot", f.id(), null, signedQuantity(rnd, 1e4, 1e6), null, null, null);
        } else if (u < 0.8) { // zero-coupon bond: face amount on a rate factor
          position(
              ps,
              "zcb",
              rate.id(),
              rate.id(),
              signedQuantity(rnd, 1e4, 1e6),
              null,
              decimal(0.5 + 9.5 * rnd.nextDouble(), 6),
              null);
        } else { // European option on an equity, discounted on a rate factor
          Factor eq = equities.get(rnd.nextInt(equities.size()));
          String kind = rnd.nextBoolean() ? "call" : "put";
          position(
              ps,
              kind,
              eq.id(),
              rate.id(),
              signedQuantity(rnd, 10, 1000),
              decimal(eq.level() * (0.8 + 0.4 * rnd.nextDouble()), 10),
              decimal(0.1 + 1.9 * rnd.nextDouble(), 6),
              decimal(0.15 + 0.25 * rnd.nextDouble(), 8));
        }
        ps.addBatch();
        if (p % 1000 == 0) {
          ps.executeBatch();
        }
      }
      ps.executeBatch();
    }
  }

  private static void position(
      PreparedStatement ps,
      String instrument,
      String factor,
      String rateFactor,
      BigDecimal quantity,
      BigDecimal strike,
      BigDecimal maturity,
      BigDecimal volatility)
      throws SQLException {
    ps.setString(3, instrument);
    ps.setString(4, factor);
    ps.setString(5, rateFactor);
    ps.setBigDecimal(6, quantity);
    ps.setBigDecimal(7, strike);
    ps.setBigDecimal(8, maturity);
    ps.setBigDecimal(9, volatility);
  }

  private static void insertRunParameters(Connection c) throws SQLException {
    String[][] parameters = {
      {"scenarios", "50000"},
      {"horizon_days", "1"},
      {"confidence_levels", "0.95;0.99"},
      {"method", "mc-normal"},
      {"dof", "5"},
      {"seed", "20261122"},
      {"histogram_bins", "60"}
    };
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into var_run_parameter(run_name, name, value) values (?, ?, ?)")) {
      for (String[] p : parameters) {
        ps.setString(1, RUN_NAME);
        ps.setString(2, p[0]);
        ps.setString(3, p[1]);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static BigDecimal signedQuantity(SplittableRandom rnd, double min, double max) {
    double q = min + (max - min) * rnd.nextDouble();
    return decimal(rnd.nextDouble() < 0.25 ? -q : q, 0);
  }

  private static BigDecimal decimal(double value, int scale) {
    return BigDecimal.valueOf(value).setScale(scale, RoundingMode.HALF_EVEN);
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller; SplittableRandom has no nextGaussian on Java 17.
    double u1 = 1.0 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  private static LocalDate previousBusinessDay(LocalDate day) {
    LocalDate d = day.minusDays(1);
    while (d.getDayOfWeek() == DayOfWeek.SATURDAY || d.getDayOfWeek() == DayOfWeek.SUNDAY) {
      d = d.minusDays(1);
    }
    return d;
  }
}
