package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.VarLimit;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the VaR limits of one results data source ({@code var_limit}: node, confidence, limit,
 * valid from; docs/risk-view.md, "Limits"). A data source without the table has no limits. Same
 * accounts as {@link ResultTables}; only reads.
 */
public final class LimitTables {
  /** The most limit rows one data source may hold: more is refused, not cut. */
  public static final int MAX_LIMITS = 100_000;

  private static final int QUERY_TIMEOUT_SECONDS = 60;
  // ordered so that the last row of a node and confidence is the one in force
  private static final String LIMITS =
      "select node, confidence, var_limit, valid_from from var_limit where valid_from <= ?"
          + " order by node, confidence, valid_from";

  private final NamedDataSource source;

  public LimitTables(NamedDataSource source) {
    this.source = source;
  }

  /** The limit in force on {@code date} for each node and confidence level that has one. */
  public List<VarLimit> inForce(LocalDate date) throws SQLException {
    try (Connection c = ReaderConnection.open(source)) {
      if (!ReaderConnection.hasTable(c, "var_limit")) {
        return List.of();
      }
      Map<String, VarLimit> latest = new LinkedHashMap<>();
      try (PreparedStatement ps = c.prepareStatement(LIMITS)) {
        ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        ps.setMaxRows(MAX_LIMITS + 1);
        ps.setObject(1, date);
        int rows = 0;
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (++rows > MAX_LIMITS) {
              throw new SQLException("var_limit has more than " + MAX_LIMITS + " rows in force");
            }
            VarLimit limit =
                new VarLimit(
                    source.name(),
                    rs.getString("node"),
                    rs.getBigDecimal("confidence"),
                    rs.getDouble("var_limit"),
                    rs.getObject("valid_from", LocalDate.class));
            if (!(limit.limit() > 0)) {
              throw new SQLException(
                  "var_limit of node '"
                      + limit.node()
                      + "' at "
                      + limit.confidence()
                      + " from "
                      + limit.validFrom()
                      + " is "
                      + limit.limit()
                      + ": a limit must be positive");
            }
            latest.put(limit.node() + "\n" + limit.confidence().stripTrailingZeros(), limit);
          }
        }
      }
      return new ArrayList<>(latest.values());
    }
  }
}
