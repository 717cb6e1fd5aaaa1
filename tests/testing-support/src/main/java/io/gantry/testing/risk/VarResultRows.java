package io.gantry.testing.risk;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * Writes risk results into a database with the demo market's tables (the demo's schema,
 * middleware-server's {@code market-schema.sql}, and the stage-out ledger) as stage-out writes
 * them: a run's {@code var_run} row and its ledger entry, the nodes' figures in {@code
 * var_node_summary}, positions' contributions in {@code var_position_contribution}, a backtest's
 * {@code backtest_summary} row, and the hierarchy and desk P&L where the database has no demo data.
 * One owner for the rows tests plant, so a change of the result tables changes one place.
 */
public final class VarResultRows {
  private final Connection connection;

  /** Writes through {@code connection} (an account that may insert into the tables). */
  public VarResultRows(Connection connection) {
    this.connection = connection;
  }

  /**
   * A run: its {@code var_run} row (one-day horizon, 99%) and, when {@code stagedOutAt} is not
   * null, its stage-out ledger entry committed at that instant.
   */
  public VarResultRows run(
      String runId, LocalDate day, String method, long scenarios, Instant stagedOutAt)
      throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "insert into var_run (run_id, business_date, method, horizon_days, scenarios, seed,"
                + " base_currency, confidence_levels, program_version)"
                + " values (?, ?, ?, 1, ?, 1, 'USD', '0.99', 'test')")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setString(3, method);
      ps.setLong(4, scenarios);
      ps.executeUpdate();
    }
    if (stagedOutAt != null) {
      ledger(runId, stagedOutAt);
    }
    return this;
  }

  /** A stage-out ledger entry of job {@code jobId} committed at {@code at}. */
  public VarResultRows ledger(String jobId, Instant at) throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "insert into gantry_stage_out_ledger (job_id, step_key, file_checksum, row_count,"
                + " committed_at) values (?, 'summary', 'x', 1, ?)")) {
      ps.setString(1, jobId);
      ps.setTimestamp(2, Timestamp.from(at));
      ps.executeUpdate();
    }
    return this;
  }

  /**
   * One node's 99% VaR and ES in run {@code runId}, with Monte Carlo standard errors where {@code
   * varStderr} is not null (the ES's then 1.5 times it).
   */
  public VarResultRows figure(
      String runId, LocalDate day, String node, double var, double es, Double varStderr)
      throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "insert into var_node_summary (run_id, business_date, node, confidence, var,"
                + " expected_shortfall, var_stderr, es_stderr, pnl_mean, pnl_stddev, scenarios)"
                + " values (?, ?, ?, 0.99, ?, ?, ?, ?, 0, 1, 1000)")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setString(3, node);
      ps.setDouble(4, var);
      ps.setDouble(5, es);
      ps.setObject(6, varStderr);
      ps.setObject(7, varStderr == null ? null : varStderr * 1.5);
      ps.executeUpdate();
    }
    return this;
  }

  /** A position's contribution to a node's 99% VaR and ES in run {@code runId}. */
  public VarResultRows contribution(
      String runId, LocalDate day, String node, String positionId, double var, double es)
      throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "insert into var_position_contribution (run_id, business_date, node, position_id,"
                + " confidence, var_contribution, es_contribution) values (?, ?, ?, ?, 0.99, ?, ?)")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setString(3, node);
      ps.setString(4, positionId);
      ps.setDouble(5, var);
      ps.setDouble(6, es);
      ps.executeUpdate();
    }
    return this;
  }

  /**
   * A backtest's 99% hypothetical summary of {@code node} on {@code day} (250 observations over a
   * 250-day window) and its ledger entry.
   */
  public VarResultRows backtest(
      String runId, LocalDate day, String node, int exceptions, String zone, Instant stagedOutAt)
      throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "insert into backtest_summary (run_id, business_date, node, confidence, pnl_type,"
                + " window_days, observations, exceptions, expected_exceptions, zone,"
                + " kupiec_p_value, first_date, last_date)"
                + " values (?, ?, ?, 0.99, 'hypothetical', 250, 250, ?, 2.5, ?, 0.0625, ?, ?)")) {
      ps.setString(1, runId);
      ps.setObject(2, day);
      ps.setString(3, node);
      ps.setInt(4, exceptions);
      ps.setString(5, zone);
      ps.setObject(6, day.minusDays(360));
      ps.setObject(7, day);
      ps.executeUpdate();
    }
    return ledger(runId, stagedOutAt);
  }

  /**
   * Hierarchy nodes by path (parents before children), each with its {@code node_ancestor} rows,
   * for a database without the demo's hierarchy; the last path segment is the name.
   */
  public VarResultRows hierarchy(List<String> paths) throws SQLException {
    for (String path : paths) {
      int slash = path.lastIndexOf('/');
      try (PreparedStatement ps =
          connection.prepareStatement(
              "insert into hierarchy_node (node, parent, name, node_kind, description)"
                  + " values (?, ?, ?, ?, 'test node')")) {
        ps.setString(1, path);
        ps.setString(2, slash < 0 ? null : path.substring(0, slash));
        ps.setString(3, path.substring(slash + 1));
        ps.setString(4, slash < 0 ? "bank" : "desk");
        ps.executeUpdate();
      }
      try (PreparedStatement ps =
          connection.prepareStatement("insert into node_ancestor (ancestor, node) values (?, ?)")) {
        for (int at = path.length(); at > 0; at = path.lastIndexOf('/', at - 1)) {
          ps.setString(1, path.substring(0, at));
          ps.setString(2, path);
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    return this;
  }

  /** A desk's hypothetical P&L (USD) on {@code day}. */
  public VarResultRows pnl(LocalDate day, String desk, double pnl) throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "insert into desk_pnl (business_date, node, currency, hypothetical_pnl)"
                + " values (?, ?, 'USD', ?)")) {
      ps.setObject(1, day);
      ps.setString(2, desk);
      ps.setDouble(3, pnl);
      ps.executeUpdate();
    }
    return this;
  }
}
