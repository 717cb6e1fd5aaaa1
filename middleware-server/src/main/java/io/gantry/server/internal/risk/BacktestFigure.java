package io.gantry.server.internal.risk;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * One node's backtest at one confidence level on one business date, as one run of the backtest job
 * produced it (a row of {@code backtest_summary}, docs/risk-view.md, "Backtesting"): the
 * exceptions, the Basel traffic-light zone, Kupiec's and Christoffersen's tests.
 *
 * @param dataSource the named data source the row was read from
 * @param exceptions null where the window held no observation (so zone and tests are null too)
 * @param stagedOutAt when the backtest job's stage-out committed its last step, or null
 * @param supersededBy the run id of a later backtest of the same business date, node, confidence
 *     level and P&amp;L type, or null when this one is current
 */
public record BacktestFigure(
    String dataSource,
    String runId,
    LocalDate businessDate,
    String node,
    BigDecimal confidence,
    String pnlType,
    int windowDays,
    int observations,
    Integer exceptions,
    Double expectedExceptions,
    String zone,
    Double kupiecPValue,
    Double independencePValue,
    Double conditionalCoveragePValue,
    LocalDate firstDate,
    LocalDate lastDate,
    Instant stagedOutAt,
    String supersededBy) {

  /** Whether no later backtest replaced this one. */
  public boolean current() {
    return supersededBy == null;
  }
}
