package io.gantry.server.internal.risk;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * A node's VaR limit at one confidence level (a row of {@code var_limit}, docs/risk-view.md,
 * "Limits"), in the base currency of the runs it is compared with, in force from {@code validFrom}
 * until a later row of the same node and confidence.
 */
public record VarLimit(
    String dataSource, String node, BigDecimal confidence, double limit, LocalDate validFrom) {

  /** Whether this limit applies to {@code figure}: same data source, node and confidence. */
  public boolean appliesTo(VarFigure figure) {
    return dataSource.equals(figure.dataSource())
        && node.equals(figure.node())
        && confidence.compareTo(figure.confidence()) == 0;
  }

  /** The figure's VaR as a percentage of this limit. */
  public double usagePercent(VarFigure figure) {
    return 100 * figure.var() / limit;
  }
}
