package io.gantry.server.internal.demo;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
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
import java.time.LocalDate;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The demo market database that the sample VaR job runs against (docs/sample-var-job.md): a bank of
 * two legal entities and six desks in USD, EUR and JPY (base currency USD), its book as of each of
 * the last ten business days, six years of daily closes of equities, FX pairs (quoted as markets
 * quote them), rate curves (EUR and JPY rates negative for years) and implied volatilities, each
 * desk's hypothetical daily P&L, run parameters, and empty result tables. Deterministic: the same
 * size gives the same data on every machine. The history's process is described in {@link
 * DemoMarketHistory}, the book in {@link DemoBook}.
 */
public final class DemoMarket {
  /** The name under which the server exposes this database as a data source. */
  public static final String DATA_SOURCE_NAME = "demo-market";

  /** The run parameters' set (var_run_parameter.run_name) the sample jobs read. */
  public static final String RUN_NAME = "daily";

  /** The top of the demo bank's hierarchy: the sample job's node. */
  public static final String TOP_NODE = DemoBook.TOP;

  /** The last business date of the history and the book. */
  public static final LocalDate LAST_BUSINESS_DATE = DemoMarketHistory.LAST_DAY;

  /**
   * The schema this server makes (market-schema.sql); older ones are upgraded at start. Version 3:
   * desk_pnl covers the whole history (version 2 held its last year only).
   */
  static final int SCHEMA_VERSION = 3;

  /**
   * The days of hypothetical P&L per desk (desk_pnl): every day of the history but the first, so
   * that a backtest of any year of VaR history (the crisis's included: docs/risk-view.md, "The
   * demo's year of history") finds its P&L.
   */
  static final int PNL_DAYS = DemoMarketHistory.DAYS - 1;

  private static final long SEED = 20261122L;

  /** The account stage-in reads with. */
  public static final String READER = "market_reader";

  /** The account stage-out writes with. */
  public static final String WRITER = "results_writer";

  private static final List<String> MARKET_TABLES =
      List.of(
          "hierarchy_node",
          "node_ancestor",
          "portfolio",
          "risk_factor",
          "factor_history",
          "position",
          "position_factor",
          "var_run_parameter",
          "desk_pnl");
  private static final List<String> RESULT_TABLES =
      List.of(
          "var_run",
          "var_run_input",
          "var_node_summary",
          "var_node_pnl_distribution",
          "var_position_contribution",
          "var_node_contribution",
          "var_tail_scenario",
          "var_data_quality",
          "var_summary",
          "var_pnl_distribution",
          "var_contribution",
          "instrument_value",
          "backtest_summary",
          "backtest_exceptions",
          "gantry_stage_out_ledger");

  /** What the results history (io.gantry.server.internal.risk) reads, as {@link #READER}. */
  private static final List<String> RESULTS_READ =
      List.of(
          "var_run",
          "var_run_input",
          "var_node_summary",
          "var_node_contribution",
          "var_position_contribution",
          "backtest_summary",
          "backtest_exceptions",
          "gantry_stage_out_ledger",
          "var_limit");

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
   * var-backtest's results (node-programs/README.md, "var-backtest"; the backtest job
   * jsdl-schema/examples/var-backtest.jsdl), one table per output file in its column order: made on
   * every start, so a demo database from before the backtest job has them too. (Public for tests
   * that make the result tables without the demo.)
   */
  public static final List<String> BACKTEST_TABLES =
      List.of(
          "create table if not exists backtest_summary (run_id varchar(64) not null,"
              + " business_date date not null, node varchar(200) not null,"
              + " confidence decimal(8,6) not null, pnl_type varchar(16) not null,"
              + " window_days int not null, observations int not null, exceptions int,"
              + " expected_exceptions double precision, cumulative_probability double precision,"
              + " zone varchar(8), plus_factor double precision, kupiec_lr double precision,"
              + " kupiec_p_value double precision, n00 int, n01 int, n10 int, n11 int,"
              + " independence_lr double precision, independence_p_value double precision,"
              + " conditional_coverage_lr double precision,"
              + " conditional_coverage_p_value double precision, first_date date, last_date date,"
              + " primary key (run_id, node, confidence, pnl_type))",
          "create table if not exists backtest_exceptions (run_id varchar(64) not null,"
              + " business_date date not null, node varchar(200) not null,"
              + " confidence decimal(8,6) not null, pnl_type varchar(16) not null,"
              + " var_date date not null, pnl_date date not null, var double precision not null,"
              + " pnl double precision not null,"
              + " primary key (run_id, node, confidence, pnl_type, var_date))");

  /**
   * The VaR limits the risk view compares figures with (docs/risk-view.md, "Limits"): a node's
   * limit at a confidence level, in the runs' base currency, in force from {@code valid_from} until
   * a later row. Made on every start, so an older demo database has it too; the risk managers fill
   * it (the stage-out account may not). (Public for tests that make the result tables.)
   */
  public static final String VAR_LIMIT_TABLE =
      "create table if not exists var_limit (node varchar(200) not null,"
          + " confidence decimal(8,6) not null, var_limit double precision not null,"
          + " valid_from date not null, primary key (node, confidence, valid_from))";

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
      for (String table : BACKTEST_TABLES) {
        s.execute(table);
      }
      s.execute(VAR_LIMIT_TABLE);
      for (String account : List.of(READER, WRITER)) {
        String password = password(passwordFile(account));
        s.execute("create user if not exists " + account + " password '" + password + "'");
        s.execute("alter user " + account + " set password '" + password + "'");
      }
      s.execute("grant select on table " + String.join(", ", MARKET_TABLES) + " to " + READER);
      s.execute("grant insert on table " + String.join(", ", RESULT_TABLES) + " to " + WRITER);
      s.execute("grant select on table gantry_stage_out_ledger to " + WRITER);
      // the server's results history reads results with the reader account (RiskResults)
      s.execute("grant select on table " + String.join(", ", RESULTS_READ) + " to " + READER);
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

  /**
   * Creates and fills the database unless it already holds schema version {@link #SCHEMA_VERSION};
   * returns true if it created or upgraded it. A database of version 2 is upgraded as version 1 is
   * below (its market tables made again, now with the whole history's desk P&L; its results kept).
   * A database of version 1 (one flat portfolio DESK-1, no business date on positions; no
   * demo_schema_version table) is upgraded in place: its market tables are dropped and generated
   * again, its result tables and their rows are kept, and the version 2 result tables are added
   * beside them.
   */
  public boolean createIfMissing() throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl(), "sa", "")) {
      int version = version(c);
      if (version == SCHEMA_VERSION) {
        ensureAccounts(c);
        return false;
      }
      if (version > SCHEMA_VERSION) {
        throw new IllegalStateException(
            "the demo market database in "
                + directory
                + " has schema version "
                + version
                + ", newer than this server's "
                + SCHEMA_VERSION
                + "; delete it and restart");
      }
      c.setAutoCommit(false);
      try {
        if (version != 0) {
          dropMarketTables(c);
        }
        createSchema(c);
        DemoMarketHistory.History history = DemoMarketHistory.generate();
        DemoBook book = new DemoBook(history, positions, SEED + 2);
        insertHierarchy(c);
        insertFactors(c, history.factors());
        insertHistory(c, history);
        insertBook(c, book);
        insertDeskPnl(c, history, book);
        insertRunParameters(c);
        try (PreparedStatement ps =
            c.prepareStatement("insert into demo_schema_version(version) values (?)")) {
          ps.setInt(1, SCHEMA_VERSION);
          ps.executeUpdate();
        }
        c.commit();
        ensureAccounts(c);
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
      return true;
    }
  }

  /**
   * 0: no demo database; 1: the first one (no version table); else the stored version. A version
   * table without a row is a generation that failed half-way (H2 commits each CREATE TABLE at
   * once): counted as version 1, whose market tables are dropped and made again.
   */
  private static int version(Connection c) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    try (ResultSet rs = meta.getTables(null, null, "demo_schema_version", null)) {
      if (!rs.next()) {
        try (ResultSet old = meta.getTables(null, null, "risk_factor", null)) {
          return old.next() ? 1 : 0;
        }
      }
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select max(version) from demo_schema_version")) {
      return rs.next() && rs.getInt(1) > 0 ? rs.getInt(1) : 1;
    }
  }

  /** Drops the market tables of version 1 or 2 (result tables and their rows are kept). */
  private static void dropMarketTables(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("drop view if exists position_factor");
      for (String table :
          List.of(
              "desk_pnl",
              "position",
              "portfolio",
              "node_ancestor",
              "hierarchy_node",
              "factor_history",
              "risk_factor",
              "var_run_parameter")) {
        s.execute("drop table if exists " + table);
      }
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

  private static void insertHierarchy(Connection c) throws SQLException {
    List<DemoBook.Node> nodes = DemoBook.nodes();
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into hierarchy_node(node, parent, name, node_kind, description)"
                + " values (?, ?, ?, ?, ?)")) {
      for (DemoBook.Node n : nodes) {
        ps.setString(1, n.path());
        ps.setString(2, n.parent());
        ps.setString(3, n.name());
        ps.setString(4, n.kind());
        ps.setString(5, n.description());
        ps.executeUpdate();
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("insert into node_ancestor(ancestor, node) values (?, ?)")) {
      for (DemoBook.Node n : nodes) {
        for (String a = n.path();
            a != null;
            a = a.contains("/") ? a.substring(0, a.lastIndexOf('/')) : null) {
          ps.setString(1, a);
          ps.setString(2, n.path());
          ps.addBatch();
        }
      }
      ps.executeBatch();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into portfolio(portfolio_id, name, node, currency) values (?, ?, ?, ?)")) {
      for (DemoBook.Desk d : DemoBook.DESKS) {
        ps.setString(1, d.id());
        ps.setString(2, d.description());
        ps.setString(3, d.node());
        ps.setString(4, d.currency());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void insertFactors(Connection c, List<DemoFactor> factors) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into risk_factor(factor_id, kind, currency, quote, return_type, shift, curve,"
                + " tenor_years, description) values (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (DemoFactor f : factors) {
        ps.setString(1, f.id());
        ps.setString(2, f.kind());
        ps.setString(3, f.currency());
        ps.setString(4, f.quote());
        ps.setString(5, f.returnType());
        ps.setBigDecimal(6, null);
        ps.setString(7, f.curve());
        ps.setBigDecimal(8, f.isRate() ? decimal(f.tenorYears(), 6) : null);
        ps.setString(9, f.description());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void insertHistory(Connection c, DemoMarketHistory.History history)
      throws SQLException {
    List<DemoFactor> factors = history.factors();
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into factor_history(as_of, factor_id, level) values (?, ?, ?)")) {
      for (int d = 0; d < history.dates().length; d++) {
        Date day = Date.valueOf(history.dates()[d]);
        for (int i = 0; i < factors.size(); i++) {
          ps.setDate(1, day);
          ps.setString(2, factors.get(i).id());
          ps.setBigDecimal(3, decimal(history.levels()[d][i], 10));
          ps.addBatch();
        }
        if (d % 50 == 49) {
          ps.executeBatch();
        }
      }
      ps.executeBatch();
    }
  }

  private static void insertBook(Connection c, DemoBook book) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into position(business_date, position_id, portfolio_id, instrument, factor_id,"
                + " rate_factor_id, foreign_rate_factor_id, vol_factor_id, curve, currency,"
                + " quantity, strike, maturity_years, volatility)"
                + " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      int rows = 0;
      for (int day = 0; day < DemoBook.BOOK_DAYS; day++) {
        for (DemoBook.Position p : book.book(day)) {
          ps.setDate(1, Date.valueOf(p.businessDate()));
          ps.setString(2, p.id());
          ps.setString(3, p.desk().id());
          ps.setString(4, p.instrument());
          ps.setString(5, p.factor());
          ps.setString(6, p.rateFactor());
          ps.setString(7, p.foreignRateFactor());
          ps.setString(8, p.volFactor());
          ps.setString(9, p.curve());
          ps.setString(10, p.currency());
          ps.setBigDecimal(11, decimal(p.quantity(), 6));
          ps.setBigDecimal(12, p.strike() == null ? null : decimal(p.strike(), 10));
          ps.setBigDecimal(13, p.maturityYears() == null ? null : decimal(p.maturityYears(), 6));
          ps.setBigDecimal(14, p.volatility() == null ? null : decimal(p.volatility(), 8));
          ps.addBatch();
          if (++rows % 2000 == 0) {
            ps.executeBatch();
          }
        }
      }
      ps.executeBatch();
    }
  }

  /**
   * Each desk's hypothetical P&L over the last {@link #PNL_DAYS} business days: the book of the
   * last business date, held unchanged, revalued in full at each day's closes and at the day
   * before's (maturities as on the last date), in USD. A backtest compares it with the VaR of the
   * day before (docs/sample-var-job.md, "Backtesting data"): the VaR of that same held book, which
   * the history template (jsdl-schema/examples/var-history.jsdl) computes for any date.
   */
  private static void insertDeskPnl(Connection c, DemoMarketHistory.History history, DemoBook book)
      throws SQLException {
    DemoValuation valuation = new DemoValuation(history);
    List<DemoBook.Position> last = book.book(DemoBook.BOOK_DAYS - 1);
    int days = history.dates().length;
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into desk_pnl(business_date, node, currency, hypothetical_pnl)"
                + " values (?, ?, 'USD', ?)")) {
      for (DemoBook.Desk desk : DemoBook.DESKS) {
        List<DemoBook.Position> held = last.stream().filter(p -> p.desk().equals(desk)).toList();
        double before = value(valuation, held, days - PNL_DAYS - 1);
        for (int d = days - PNL_DAYS; d < days; d++) {
          double now = value(valuation, held, d);
          ps.setDate(1, Date.valueOf(history.dates()[d]));
          ps.setString(2, desk.node());
          ps.setDouble(3, now - before);
          ps.addBatch();
          before = now;
        }
      }
      ps.executeBatch();
    }
  }

  private static double value(DemoValuation valuation, List<DemoBook.Position> book, int day) {
    double sum = 0;
    for (DemoBook.Position p : book) {
      sum += valuation.valueUsd(p, day);
    }
    return sum;
  }

  private static void insertRunParameters(Connection c) throws SQLException {
    String[][] parameters = {
      {"scenarios", "50000"},
      {"horizon_days", "1"},
      {"confidence_levels", "0.95;0.99"},
      {"method", "mc-normal"},
      {"dof", "5"},
      {"seed", "20261122"},
      {"histogram_bins", "60"},
      {"base_currency", "USD"},
      // a year of history for the covariance (the regulatory minimum look-back)
      {"lookback_days", "250"},
      // the history's crisis has moves of 20 robust standard deviations, as real crises do; a
      // units slip (a level x100) is hundreds, and is still refused
      {"max_move_sigmas", "30"}
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

  private static BigDecimal decimal(double value, int scale) {
    return BigDecimal.valueOf(value).setScale(scale, RoundingMode.HALF_EVEN);
  }
}
