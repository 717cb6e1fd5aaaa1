package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.VarFigure;
import io.gantry.server.internal.risk.VarRun;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads VaR figures from one results data source: {@code var_node_summary} joined with {@code
 * var_run} (the tables of mcvar's result files, node-programs/README.md), and the time each run's
 * stage-out committed from the stage-out ledger where the database has one. Connects with the data
 * source's reader account where it has one (SELECT only), else its stage-out account, and only
 * reads.
 */
public final class ResultTables {
  /** The most rows one question reads from one data source: more is refused, not cut. */
  public static final int MAX_ROWS = 100_000;

  private static final int QUERY_TIMEOUT_SECONDS = 60;
  private static final String LEDGER = "gantry_stage_out_ledger";

  /** The question, with the stage-out time's expression and the node condition put in. */
  private static String select(String stagedOutAt, String nodeCondition) {
    return "select s.business_date, s.node, s.confidence, s.var, s.expected_shortfall, s.var_stderr,"
        + " s.es_stderr, r.run_id, r.business_date as run_date, r.method, r.horizon_days,"
        + " r.scenarios, r.seed, r.lookback_days, r.ewma_lambda, r.base_currency,"
        + " r.confidence_levels, r.program_version, r.stress_from, r.stress_to, "
        + stagedOutAt
        + " as staged_out_at from var_node_summary s join var_run r on r.run_id = s.run_id"
        + " where s.business_date between ? and ?"
        + nodeCondition
        + " order by s.business_date, s.node, s.confidence, r.method, r.run_id";
  }

  private static final String STAGED_OUT_AT =
      "(select max(l.committed_at) from " + LEDGER + " l where l.job_id = r.run_id)";
  // the node itself and every node below it: node paths are PARENT/CHILD (hierarchy_node)
  private static final String NODE_AND_BELOW = " and (s.node = ? or s.node like ? escape '!')";

  private final NamedDataSource source;

  public ResultTables(NamedDataSource source) {
    this.source = source;
  }

  /**
   * The figures of business dates {@code from} to {@code to} (inclusive) for {@code node} and the
   * nodes below it, or every node when {@code node} is null; every run's figures, superseded ones
   * included (marked by {@link Supersession}).
   */
  public List<VarFigure> read(LocalDate from, LocalDate to, String node) throws SQLException {
    try (Connection c = ReaderConnection.open(source)) {
      String sql =
          select(hasLedger(c) ? STAGED_OUT_AT : "null", node == null ? "" : NODE_AND_BELOW);
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        ps.setMaxRows(MAX_ROWS + 1);
        ps.setObject(1, from);
        ps.setObject(2, to);
        if (node != null) {
          ps.setString(3, node);
          ps.setString(4, likePattern(node) + "/%");
        }
        List<VarFigure> figures = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (figures.size() == MAX_ROWS) {
              throw new SQLException(
                  "more than " + MAX_ROWS + " figures; ask for fewer dates or a smaller node");
            }
            figures.add(figure(rs));
          }
        }
        return figures;
      }
    }
  }

  /** The business dates for which run {@code runId} wrote figures, earliest first. */
  public List<LocalDate> runDates(String runId) throws SQLException {
    try (Connection c = ReaderConnection.open(source);
        PreparedStatement ps =
            c.prepareStatement(
                "select distinct business_date from var_node_summary where run_id = ?"
                    + " order by business_date")) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setMaxRows(MAX_ROWS + 1);
      ps.setString(1, runId);
      List<LocalDate> dates = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          dates.add(rs.getObject(1, LocalDate.class));
        }
      }
      return dates;
    }
  }

  private VarFigure figure(ResultSet rs) throws SQLException {
    Timestamp stagedOut = rs.getTimestamp("staged_out_at");
    VarRun run =
        new VarRun(
            rs.getString("run_id"),
            rs.getObject("run_date", LocalDate.class),
            rs.getString("method"),
            rs.getInt("horizon_days"),
            rs.getLong("scenarios"),
            rs.getLong("seed"),
            rs.getObject("lookback_days", Integer.class),
            rs.getObject("ewma_lambda", Double.class),
            rs.getString("base_currency"),
            rs.getString("confidence_levels"),
            rs.getString("program_version"),
            rs.getObject("stress_from", LocalDate.class),
            rs.getObject("stress_to", LocalDate.class),
            stagedOut == null ? null : stagedOut.toInstant());
    return new VarFigure(
        source.name(),
        rs.getObject("business_date", LocalDate.class),
        rs.getString("node"),
        rs.getBigDecimal("confidence"),
        run.method(),
        rs.getDouble("var"),
        rs.getDouble("expected_shortfall"),
        rs.getObject("var_stderr", Double.class),
        rs.getObject("es_stderr", Double.class),
        run,
        null);
  }

  /** Whether the database has the stage-out ledger. */
  static boolean hasLedger(Connection c) throws SQLException {
    return ReaderConnection.hasTable(c, LEDGER);
  }

  /** {@code text} as a LIKE pattern that matches only itself (escape character '!'). */
  static String likePattern(String text) {
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
  }
}
