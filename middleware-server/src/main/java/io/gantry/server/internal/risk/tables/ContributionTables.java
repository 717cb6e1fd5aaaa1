package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.PositionContribution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one run's position contributions to one node's VaR and ES from a results data source:
 * {@code var_position_contribution} (mcvar's contributions.csv, node-programs/README.md: each
 * position to its own node and to the top node), largest VaR contribution first.
 */
public final class ContributionTables {
  private static final int QUERY_TIMEOUT_SECONDS = 60;
  private static final String SELECT =
      "select position_id, confidence, var_contribution, es_contribution, marginal_var"
          + " from var_position_contribution where run_id = ? and node = ?"
          + " order by confidence, var_contribution desc, position_id";

  private final NamedDataSource source;

  public ContributionTables(NamedDataSource source) {
    this.source = source;
  }

  /** Every position's contribution to {@code node} in run {@code runId}, at most {@code limit}. */
  public List<PositionContribution> read(String runId, String node, int limit) throws SQLException {
    try (Connection c = ReadOnlyConnection.open(source);
        PreparedStatement ps = c.prepareStatement(SELECT)) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      ps.setMaxRows(limit);
      ps.setString(1, runId);
      ps.setString(2, node);
      List<PositionContribution> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              new PositionContribution(
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
}
