package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.NodePnl;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a node's daily hypothetical P&L from one results data source: {@code desk_pnl}'s P&L of
 * every desk at or below the node, summed per business date over {@code node_ancestor}, the same
 * sum the backtest job stages in (jsdl-schema/examples/var-backtest.jsdl). A data source without
 * these tables (results only, no P&L) has no P&L: an empty answer, not an error.
 */
public final class PnlTables {
  private static final int QUERY_TIMEOUT_SECONDS = 60;
  private static final String SELECT =
      "select p.business_date, sum(p.hypothetical_pnl) as pnl from desk_pnl p"
          + " join node_ancestor a on a.node = p.node"
          + " where a.ancestor = ? and p.business_date between ? and ?"
          + " group by p.business_date order by p.business_date";

  private final NamedDataSource source;

  public PnlTables(NamedDataSource source) {
    this.source = source;
  }

  /** The P&L of {@code node} (its desks' summed) on business dates {@code from} to {@code to}. */
  public List<NodePnl> read(String node, LocalDate from, LocalDate to) throws SQLException {
    try (Connection c = ReaderConnection.open(source)) {
      if (!ReaderConnection.hasTable(c, "desk_pnl")
          || !ReaderConnection.hasTable(c, "node_ancestor")) {
        return List.of();
      }
      try (PreparedStatement ps = c.prepareStatement(SELECT)) {
        ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        ps.setMaxRows(ResultTables.MAX_ROWS + 1);
        ps.setString(1, node);
        ps.setObject(2, from);
        ps.setObject(3, to);
        List<NodePnl> days = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (days.size() == ResultTables.MAX_ROWS) {
              throw new SQLException(
                  "more than " + ResultTables.MAX_ROWS + " days of P&L; ask for fewer dates");
            }
            days.add(
                new NodePnl(
                    source.name(),
                    rs.getObject("business_date", LocalDate.class),
                    node,
                    rs.getDouble("pnl")));
          }
        }
        return days;
      }
    }
  }
}
