package io.gantry.server.internal.risk;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * One node's VaR and expected shortfall at one confidence level on one business date, as one run
 * produced it (a row of {@code var_node_summary} with its {@code var_run}).
 *
 * @param dataSource the named data source the figure was read from
 * @param varStderr the Monte Carlo standard error of the VaR, or null where the run gave none
 * @param esStderr the same for the expected shortfall
 * @param supersededBy the run id of a later run for the same business date, node, confidence level
 *     and method, or null when this figure is the current one
 */
public record VarFigure(
    String dataSource,
    LocalDate businessDate,
    String node,
    BigDecimal confidence,
    String method,
    double var,
    double expectedShortfall,
    Double varStderr,
    Double esStderr,
    VarRun run,
    String supersededBy) {

  /** Whether no later run replaced this figure. */
  public boolean current() {
    return supersededBy == null;
  }
}
