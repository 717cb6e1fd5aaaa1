package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.PositionContribution;
import io.gantry.server.internal.risk.PositionContributionRow;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one run's position contributions to one node from a results data source ({@code
 * var_position_contribution}, mcvar's contributions.csv), with each position's primary risk factor
 * from the book ({@code position}) where the data source has one. Same accounts as {@link
 * ResultTables}; only reads.
 */
public final class ContributionTables {
  /** The most positions one run's node may have: more is refused, not cut. */
  public static final int MAX_POSITIONS = 1_000_000;

  private static final int QUERY_TIMEOUT_SECONDS = 60;
  private static final String NODE_ROWS =
      "select position_id, confidence, var_contribution, es_contribution, marginal_var"
          + " from var_position_contribution where run_id = ? and node = ?"
          + " order by confidence, var_contribution desc, position_id";
  private static final String CONTRIBUTIONS =
      "select position_id, var_contribution, marginal_var from var_position_contribution"
          + " where run_id = ? and node = ? and confidence = ?";
  // the factor a position's risk is counted under: its own, else its curve, else its currency
  private static final String FACTORS =
      "select position_id, coalesce(factor_id, curve, currency) as factor from position"
          + " where business_date = ?";

  private final NamedDataSource source;

  public ContributionTables(NamedDataSource source) {
    this.source = source;
  }

  /**
   * The contributions of run {@code runId} to {@code node} at {@code confidence}, by position id;
   * empty where the run stored none for that node (mcvar stores them for the run's top node and
   * each position's own node).
   */
  public Map<String, PositionContribution> read(
      String runId, LocalDate businessDate, String node, BigDecimal confidence)
      throws SQLException {
    try (Connection c = ReaderConnection.open(source)) {
      Map<String, String> factors =
          ReaderConnection.hasTable(c, "position") ? factors(c, businessDate) : Map.of();
      Map<String, PositionContribution> contributions = new LinkedHashMap<>();
      try (PreparedStatement ps = c.prepareStatement(CONTRIBUTIONS)) {
        ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        ps.setMaxRows(MAX_POSITIONS + 1);
        ps.setString(1, runId);
        ps.setString(2, node);
        ps.setBigDecimal(3, confidence);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (contributions.size() == MAX_POSITIONS) {
              throw new SQLException(
                  "run " + runId + " has more than " + MAX_POSITIONS + " positions in " + node);
            }
            String id = rs.getString("position_id");
            contributions.put(
                id,
                new PositionContribution(
                    id,
                    rs.getDouble("var_contribution"),
                    rs.getObject("marginal_var", Double.class),
                    factors.get(id)));
          }
        }
      }
      return contributions;
    }
  }

  /**
   * Every position's contribution to {@code node}'s VaR and ES in run {@code runId}, largest VaR
   * contribution first, at most {@code limit} (the dashboard's positions table).
   */
  public List<PositionContributionRow> rows(String runId, String node, int limit)
      throws SQLException {
    try (Connection c = ReaderConnection.open(source);
        PreparedStatement ps = c.prepareStatement(NODE_ROWS)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setMaxRows(limit);
      ps.setString(1, runId);
      ps.setString(2, node);
      List<PositionContributionRow> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              new PositionContributionRow(
                  source.name(),
                  runId,
                  node,
                  rs.getString("position_id"),
                  rs.getBigDecimal("confidence"),
                  rs.getDouble("var_contribution"),
                  rs.getDouble("es_contribution"),
                  rs.getObject("marginal_var", Double.class)));
        }
      }
      return rows;
    }
  }

  private static Map<String, String> factors(Connection c, LocalDate businessDate)
      throws SQLException {
    Map<String, String> factors = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(FACTORS)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setMaxRows(MAX_POSITIONS + 1);
      ps.setObject(1, businessDate);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next() && factors.size() <= MAX_POSITIONS) {
          factors.put(rs.getString("position_id"), rs.getString("factor"));
        }
      }
    }
    return factors;
  }
}
