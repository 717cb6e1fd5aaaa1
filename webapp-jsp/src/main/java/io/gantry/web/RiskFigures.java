package io.gantry.web;

import io.gantry.server.api.BacktestInfo;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.VarFigureInfo;
import io.gantry.server.api.VarLimitInfo;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the risk pages ask the server, through the job-management service acting for the signed-in
 * user (the SOAP API's risk-view operations in process, so a user sees exactly the data sources
 * they may read): a date's current figures, the business date before it, a node's traffic light.
 */
final class RiskFigures {
  /** How far back the dashboard looks for the business date before: two weeks of holidays. */
  static final int PREVIOUS_DATE_SEARCH_DAYS = 14;

  private final JobManagementService jobs;
  private final Map<LocalDate, List<VarFigureInfo>> byDate = new HashMap<>();

  RiskFigures(JobManagementService jobs) {
    this.jobs = jobs;
  }

  JobManagementService jobs() {
    return jobs;
  }

  /** The current figures (no superseded run's) of {@code date}, under {@code node} or all. */
  List<VarFigureInfo> current(LocalDate date, String node) {
    List<VarFigureInfo> all =
        node == null
            ? byDate.computeIfAbsent(date, d -> jobs.getVarSummary(d.toString(), null))
            : jobs.getVarSummary(date.toString(), node);
    return all.stream().filter(f -> f.supersededBy == null).toList();
  }

  /**
   * The latest business date before {@code date} with figures for any node the user may see, at
   * most {@link #PREVIOUS_DATE_SEARCH_DAYS} days back.
   */
  Optional<LocalDate> previousDate(LocalDate date) {
    for (int back = 1; back <= PREVIOUS_DATE_SEARCH_DAYS; back++) {
      LocalDate d = date.minusDays(back);
      if (!current(d, null).isEmpty()) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /**
   * The current 99% hypothetical backtest of {@code node} on {@code date}, else the latest one if
   * it is not after {@code date}.
   */
  Optional<BacktestInfo> backtest(String node, LocalDate date) {
    Optional<BacktestInfo> on = pick(jobs.getVarBacktest(node, date.toString()));
    if (on.isPresent()) {
      return on;
    }
    return pick(jobs.getVarBacktest(node, null))
        .filter(b -> !LocalDate.parse(b.businessDate).isAfter(date));
  }

  private static Optional<BacktestInfo> pick(List<BacktestInfo> backtests) {
    return backtests.stream()
        .filter(b -> b.supersededBy == null)
        .filter(b -> "hypothetical".equals(b.pnlType))
        .filter(b -> b.confidence.compareTo(new java.math.BigDecimal("0.99")) == 0)
        .findFirst();
  }

  /**
   * The keys ({@link #key}) of the current figures of {@code date} under {@code node} (or all) that
   * breach their VaR limit, as the server judges a breach (docs/risk-view.md, "Limits").
   */
  java.util.Set<String> breaches(LocalDate date, String node) {
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (VarLimitInfo l : jobs.getVarLimits(date.toString(), node, true)) {
      keys.add(key(l.dataSource, l.node, l.confidence, l.method));
    }
    return keys;
  }

  /** The key two dates' figures are matched by: data source, node, confidence, method. */
  static String key(VarFigureInfo f) {
    return key(f.dataSource, f.node, f.confidence, f.method);
  }

  private static String key(
      String dataSource, String node, java.math.BigDecimal confidence, String method) {
    return dataSource
        + '\u0000'
        + node
        + '\u0000'
        + confidence.stripTrailingZeros().toPlainString()
        + '\u0000'
        + method;
  }
}
