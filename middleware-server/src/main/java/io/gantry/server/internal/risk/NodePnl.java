package io.gantry.server.internal.risk;

import java.time.LocalDate;

/**
 * A node's hypothetical P&L on one business date: its desks' {@code desk_pnl} summed (the P&L the
 * backtest compares with the VaR, docs/risk-view.md, "What is compared with what").
 */
public record NodePnl(String dataSource, LocalDate businessDate, String node, double pnl) {}
