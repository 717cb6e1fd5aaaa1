package io.gantry.server.internal.risk;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * One exception of a backtest (a row of {@code backtest_exceptions}, docs/risk-view.md,
 * "Backtesting"): the business day whose VaR the next business day's loss exceeded.
 *
 * @param dataSource the named data source the row was read from
 * @param runId the backtest job's id
 * @param businessDate the backtest's business date (the last P&amp;L date of its window)
 * @param varDate the business day of the VaR
 * @param pnlDate the next business day, whose P&amp;L ({@code pnl}, negative: a loss) exceeded it
 * @param supersededBy the run id of the backtest that replaced this one's, or null when current
 */
public record BacktestExceptionDay(
    String dataSource,
    String runId,
    LocalDate businessDate,
    String node,
    BigDecimal confidence,
    String pnlType,
    LocalDate varDate,
    LocalDate pnlDate,
    double var,
    double pnl,
    String supersededBy) {}
