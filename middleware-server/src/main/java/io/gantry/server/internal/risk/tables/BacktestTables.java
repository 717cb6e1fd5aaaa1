package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.BacktestExceptionDay;
import io.gantry.server.internal.risk.BacktestFigure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the backtest job's summaries from one results data source: {@code backtest_summary}
 * (var-backtest's backtest_summary.csv, jsdl-schema/examples/var-backtest.jsdl) with the time each
 * backtest's stage-out committed from the stage-out ledger, and its exceptions ({@code
 * backtest_exceptions}). Same accounts as {@link ResultTables}.
 */
public final class BacktestTables {
  private static final int QUERY_TIMEOUT_SECONDS = 60;
  private static final String COLUMNS =
      "b.run_id, b.business_date, b.node, b.confidence, b.pnl_type, b.window_days,"
          + " b.observations, b.exceptions, b.expected_exceptions, b.zone, b.kupiec_p_value,"
          + " b.independence_p_value, b.conditional_coverage_p_value, b.first_date, b.last_date";

  private final NamedDataSource source;

  public BacktestTables(NamedDataSource source) {
    this.source = source;
  }

  /**
   * Every backtest of {@code node} alone on {@code date}, or on the latest business date this data
   * source has for the node when {@code date} is null; superseded ones included, unmarked.
   */
  public List<BacktestFigure> read(String node, LocalDate date) throws SQLException {
    try (Reader reader = new Reader()) {
      String stagedOutAt =
          ResultTables.hasLedger(reader.connection)
              ? "(select max(l.committed_at) from gantry_stage_out_ledger l"
                  + " where l.job_id = b.run_id)"
              : "null";
      String sql =
          "select "
              + COLUMNS
              + ", "
              + stagedOutAt
              + " as staged_out_at from backtest_summary b where b.node = ? and b.business_date = "
              + day(date)
              + " order by b.confidence, b.pnl_type, b.run_id";
      List<BacktestFigure> figures = new ArrayList<>();
      try (PreparedStatement ps = reader.statement(sql, node, date);
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          figures.add(figure(rs));
        }
      }
      return figures;
    }
  }

  /**
   * Every exception ({@code backtest_exceptions}) of every backtest of {@code node} alone on {@code
   * date}, or on the latest business date with a backtest summary of the node when null (the date
   * {@link #read} takes); unmarked, in date order.
   */
  public List<BacktestExceptionDay> exceptions(String node, LocalDate date) throws SQLException {
    try (Reader reader = new Reader()) {
      String sql =
          "select e.run_id, e.business_date, e.node, e.confidence, e.pnl_type, e.var_date,"
              + " e.pnl_date, e.var, e.pnl from backtest_exceptions e"
              + " where e.node = ? and e.business_date = "
              + day(date)
              + " order by e.confidence, e.pnl_type, e.pnl_date, e.run_id";
      List<BacktestExceptionDay> days = new ArrayList<>();
      try (PreparedStatement ps = reader.statement(sql, node, date);
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          days.add(
              new BacktestExceptionDay(
                  source.name(),
                  rs.getString("run_id"),
                  rs.getObject("business_date", LocalDate.class),
                  rs.getString("node"),
                  rs.getBigDecimal("confidence"),
                  rs.getString("pnl_type"),
                  rs.getObject("var_date", LocalDate.class),
                  rs.getObject("pnl_date", LocalDate.class),
                  rs.getDouble("var"),
                  rs.getDouble("pnl"),
                  null));
        }
      }
      return days;
    }
  }

  /**
   * The business date: the given one, or the node's latest backtest (both bound, never spliced).
   */
  private static String day(LocalDate date) {
    return date != null
        ? "?"
        : "(select max(m.business_date) from backtest_summary m where m.node = ?)";
  }

  /** A read-only connection with the data source's reader account (else its user). */
  private final class Reader implements AutoCloseable {
    private final Connection connection;

    Reader() throws SQLException {
      connection = ReaderConnection.open(source);
    }

    /** {@code sql} bound with the node, then the date or (for the latest) the node again. */
    PreparedStatement statement(String sql, String node, LocalDate date) throws SQLException {
      PreparedStatement ps = connection.prepareStatement(sql);
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setMaxRows(ResultTables.MAX_ROWS);
      ps.setString(1, node);
      if (date != null) {
        ps.setObject(2, date);
      } else {
        ps.setString(2, node);
      }
      return ps;
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }

  private BacktestFigure figure(ResultSet rs) throws SQLException {
    Timestamp stagedOut = rs.getTimestamp("staged_out_at");
    return new BacktestFigure(
        source.name(),
        rs.getString("run_id"),
        rs.getObject("business_date", LocalDate.class),
        rs.getString("node"),
        rs.getBigDecimal("confidence"),
        rs.getString("pnl_type"),
        rs.getInt("window_days"),
        rs.getInt("observations"),
        rs.getObject("exceptions", Integer.class),
        rs.getObject("expected_exceptions", Double.class),
        rs.getString("zone"),
        rs.getObject("kupiec_p_value", Double.class),
        rs.getObject("independence_p_value", Double.class),
        rs.getObject("conditional_coverage_p_value", Double.class),
        rs.getObject("first_date", LocalDate.class),
        rs.getObject("last_date", LocalDate.class),
        stagedOut == null ? null : stagedOut.toInstant(),
        null);
  }
}
