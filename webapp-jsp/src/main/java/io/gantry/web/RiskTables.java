package io.gantry.web;

import io.gantry.server.api.BacktestInfo;
import io.gantry.server.api.VarExplainInfo;
import io.gantry.server.api.VarFigureInfo;
import io.gantry.server.api.VarPositionInfo;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The risk pages' tables (docs/risk-view.md, "The dashboard" says what each column means), built
 * from the server's answers. Each table's columns are listed in one place beside the cells that
 * fill them.
 */
final class RiskTables {
  private RiskTables() {}

  private static final Comparator<VarFigureInfo> ORDER =
      Comparator.comparing((VarFigureInfo f) -> f.node)
          .thenComparing(f -> f.confidence)
          .thenComparing(f -> f.method)
          .thenComparing(f -> f.dataSource);

  /**
   * The hierarchy on {@code date}: every current figure (of the nodes under {@code under}, or all),
   * with the change against {@code previous}, the Monte Carlo error, and the traffic light.
   */
  static RiskTable dashboard(
      String id,
      String caption,
      String context,
      RiskFigures figures,
      LocalDate date,
      String under,
      Optional<LocalDate> previous) {
    List<RiskTable.Column> columns =
        List.of(
            new RiskTable.Column("Node", false),
            new RiskTable.Column("Confidence", false),
            new RiskTable.Column("Method", false),
            new RiskTable.Column("VaR", true),
            new RiskTable.Column("MC error (95%)", true),
            new RiskTable.Column("ES", true),
            new RiskTable.Column("Change", true),
            new RiskTable.Column("Change %", true),
            new RiskTable.Column("VaR limit", true),
            new RiskTable.Column("Limit usage", true),
            new RiskTable.Column("Backtest", false),
            new RiskTable.Column("Data source", false));
    List<VarFigureInfo> today =
        new ArrayList<>(figures.current(date, under).stream().sorted(ORDER).toList());
    Map<String, VarFigureInfo> before = new HashMap<>();
    previous.ifPresent(
        p -> figures.current(p, null).forEach(f -> before.put(RiskFigures.key(f), f)));
    java.util.Set<String> breaches = figures.breaches(date, under);
    Map<String, Optional<BacktestInfo>> lights = new HashMap<>();
    List<List<RiskTable.Cell>> rows = new ArrayList<>();
    for (VarFigureInfo f : today) {
      VarFigureInfo b = before.get(RiskFigures.key(f));
      Double change = b == null ? null : f.var - b.var;
      Optional<BacktestInfo> light = lights.computeIfAbsent(f.node, n -> figures.backtest(n, date));
      rows.add(
          List.of(
              new RiskTable.Cell(
                  f.node, nodeLink(context, f.node, date), "depth-" + depth(f.node), null),
              RiskTable.Cell.of(percent(f.confidence)),
              RiskTable.Cell.of(f.method),
              RiskTable.Cell.money(f.var),
              mcError(f),
              RiskTable.Cell.money(f.expectedShortfall),
              RiskTable.Cell.money(change),
              RiskTable.Cell.of(
                  change == null || b.var == 0
                      ? ""
                      : String.format(Locale.ENGLISH, "%.1f%%", 100 * change / b.var)),
              RiskTable.Cell.money(f.varLimit),
              limitUsage(f, breaches.contains(RiskFigures.key(f))),
              light.map(RiskTables::trafficLight).orElse(RiskTable.Cell.of("")),
              RiskTable.Cell.of(f.dataSource)));
    }
    return new RiskTable(id, caption, columns, rows, null);
  }

  /** The figures of two dates side by side: each current figure of either, matched by key. */
  static RiskTable compare(
      String context, RiskFigures figures, LocalDate first, LocalDate second, String under) {
    List<RiskTable.Column> columns =
        List.of(
            new RiskTable.Column("Node", false),
            new RiskTable.Column("Confidence", false),
            new RiskTable.Column("Method", false),
            new RiskTable.Column("VaR " + first, true),
            new RiskTable.Column("VaR " + second, true),
            new RiskTable.Column("VaR change", true),
            new RiskTable.Column("ES " + first, true),
            new RiskTable.Column("ES " + second, true),
            new RiskTable.Column("ES change", true),
            new RiskTable.Column("Data source", false));
    Map<String, VarFigureInfo> a = new HashMap<>();
    Map<String, VarFigureInfo> b = new HashMap<>();
    figures.current(first, under).forEach(f -> a.put(RiskFigures.key(f), f));
    figures.current(second, under).forEach(f -> b.put(RiskFigures.key(f), f));
    List<VarFigureInfo> keys = new ArrayList<>(a.values());
    b.forEach(
        (k, f) -> {
          if (!a.containsKey(k)) {
            keys.add(f);
          }
        });
    keys.sort(ORDER);
    List<List<RiskTable.Cell>> rows = new ArrayList<>();
    for (VarFigureInfo k : keys) {
      VarFigureInfo x = a.get(RiskFigures.key(k));
      VarFigureInfo y = b.get(RiskFigures.key(k));
      rows.add(
          List.of(
              new RiskTable.Cell(
                  k.node, nodeLink(context, k.node, second), "depth-" + depth(k.node), null),
              RiskTable.Cell.of(percent(k.confidence)),
              RiskTable.Cell.of(k.method),
              RiskTable.Cell.money(x == null ? null : x.var),
              RiskTable.Cell.money(y == null ? null : y.var),
              RiskTable.Cell.money(x == null || y == null ? null : y.var - x.var),
              RiskTable.Cell.money(x == null ? null : x.expectedShortfall),
              RiskTable.Cell.money(y == null ? null : y.expectedShortfall),
              RiskTable.Cell.money(
                  x == null || y == null ? null : y.expectedShortfall - x.expectedShortfall),
              RiskTable.Cell.of(k.dataSource)));
    }
    return new RiskTable(
        "compare-table",
        "Current figures on " + first + " and " + second + " (change: second less first)",
        columns,
        rows,
        null);
  }

  /** A node's days: VaR, ES, P&L, the VaR it is compared with, and whether it is an exception. */
  static RiskTable history(String node, NodeSeries series) {
    List<RiskTable.Column> columns =
        List.of(
            new RiskTable.Column("Date", false),
            new RiskTable.Column("VaR", true),
            new RiskTable.Column("ES", true),
            new RiskTable.Column("P&L", true),
            new RiskTable.Column("VaR of the day before", true),
            new RiskTable.Column("Exception", false));
    List<List<RiskTable.Cell>> rows = new ArrayList<>();
    List<NodeSeries.Day> newestFirst = new ArrayList<>(series.days());
    java.util.Collections.reverse(newestFirst);
    for (NodeSeries.Day d : newestFirst) {
      rows.add(
          List.of(
              RiskTable.Cell.of(d.date().toString()),
              RiskTable.Cell.money(d.var()),
              RiskTable.Cell.money(d.es()),
              RiskTable.Cell.money(d.pnl()),
              RiskTable.Cell.money(d.varBefore()),
              d.exception()
                  ? RiskTable.Cell.styled("exception", "exception")
                  : RiskTable.Cell.of("")));
    }
    return new RiskTable(
        "history-table", "Daily figures of " + node + ", newest first", columns, rows, null);
  }

  /** The positions' contributions to a node's VaR and ES in the run of its current figure. */
  static RiskTable positions(String node, List<VarPositionInfo> positions) {
    List<RiskTable.Column> columns =
        List.of(
            new RiskTable.Column("Position", false),
            new RiskTable.Column("Confidence", false),
            new RiskTable.Column("VaR contribution", true),
            new RiskTable.Column("ES contribution", true),
            new RiskTable.Column("Marginal VaR", true),
            new RiskTable.Column("Run", false));
    List<List<RiskTable.Cell>> rows = new ArrayList<>();
    for (VarPositionInfo p : positions) {
      rows.add(
          List.of(
              RiskTable.Cell.of(p.positionId),
              RiskTable.Cell.of(percent(p.confidence)),
              RiskTable.Cell.money(p.varContribution),
              RiskTable.Cell.money(p.esContribution),
              RiskTable.Cell.money(p.marginalVar),
              RiskTable.Cell.of(p.runId)));
    }
    return new RiskTable(
        "positions-table",
        "Positions' contributions to " + node + " (Euler allocation), largest first",
        columns,
        rows,
        null);
  }

  /**
   * Why the node's VaR changed from {@code from} to {@code to} (docs/risk-view.md, "Explain"): each
   * explain's components in the server's order, then a row of the change they add up to.
   */
  static RiskTable explainComponents(
      String node, LocalDate from, LocalDate to, List<VarExplainInfo> explains) {
    List<RiskTable.Column> columns =
        List.of(
            new RiskTable.Column("Confidence", false),
            new RiskTable.Column("Method", false),
            new RiskTable.Column("Component", false),
            new RiskTable.Column("Positions", true),
            new RiskTable.Column("Amount", true),
            new RiskTable.Column("Data source", false));
    List<List<RiskTable.Cell>> rows = new ArrayList<>();
    for (VarExplainInfo e : explains) {
      for (VarExplainInfo.Component c : e.component) {
        rows.add(
            List.of(
                RiskTable.Cell.of(percent(e.confidence)),
                RiskTable.Cell.of(e.method),
                RiskTable.Cell.of(c.name),
                RiskTable.Cell.of(c.positions == 0 ? "" : Integer.toString(c.positions)),
                RiskTable.Cell.money(c.amount),
                RiskTable.Cell.of(e.dataSource)));
      }
      rows.add(
          List.of(
              RiskTable.Cell.of(percent(e.confidence)),
              RiskTable.Cell.of(e.method),
              RiskTable.Cell.styled(
                  "change (VaR " + money(e.fromVar) + " to " + money(e.toVar) + ")", "total"),
              RiskTable.Cell.of(""),
              RiskTable.Cell.styled(money(e.change), "total"),
              RiskTable.Cell.of(e.dataSource)));
    }
    return new RiskTable(
        "explain-table",
        "Why the VaR of " + node + " changed from " + from + " to " + to,
        columns,
        rows,
        null);
  }

  /** The positions that moved the node's VaR most between the two dates, largest first. */
  static RiskTable explainPositions(String node, List<VarExplainInfo> explains) {
    List<RiskTable.Column> columns =
        List.of(
            new RiskTable.Column("Confidence", false),
            new RiskTable.Column("Method", false),
            new RiskTable.Column("Position", false),
            new RiskTable.Column("Status", false),
            new RiskTable.Column("Factor", false),
            new RiskTable.Column("Contribution before", true),
            new RiskTable.Column("Contribution after", true),
            new RiskTable.Column("Quantity effect", true),
            new RiskTable.Column("Market and time", true),
            new RiskTable.Column("Change", true),
            new RiskTable.Column("Data source", false));
    List<List<RiskTable.Cell>> rows = new ArrayList<>();
    for (VarExplainInfo e : explains) {
      for (VarExplainInfo.Position p : e.position) {
        rows.add(
            List.of(
                RiskTable.Cell.of(percent(e.confidence)),
                RiskTable.Cell.of(e.method),
                RiskTable.Cell.of(p.positionId),
                RiskTable.Cell.of(p.status),
                RiskTable.Cell.of(p.factor),
                RiskTable.Cell.money(p.fromContribution),
                RiskTable.Cell.money(p.toContribution),
                RiskTable.Cell.money(p.quantityEffect),
                RiskTable.Cell.money(p.marketEffect),
                RiskTable.Cell.money(p.change),
                RiskTable.Cell.of(e.dataSource)));
      }
    }
    return new RiskTable(
        "explain-positions-table",
        "The positions that changed the VaR of " + node + " most, largest change first",
        columns,
        rows,
        null);
  }

  private static String money(double value) {
    return String.format(Locale.ENGLISH, "%,.2f", value);
  }

  /**
   * The figure's usage of its VaR limit; a breach says so in words and carries the class {@code
   * breach}, so that it is marked without colour too (and in the CSV).
   */
  private static RiskTable.Cell limitUsage(VarFigureInfo f, boolean breached) {
    if (f.limitUsagePercent == null) {
      return RiskTable.Cell.of("");
    }
    String usage = String.format(Locale.ENGLISH, "%.1f%%", f.limitUsagePercent);
    return breached ? RiskTable.Cell.styled(usage + " breach", "breach") : RiskTable.Cell.of(usage);
  }

  private static RiskTable.Cell mcError(VarFigureInfo f) {
    if (f.varStderr == null) {
      return RiskTable.Cell.of("");
    }
    return RiskTable.Cell.of(
            String.format(Locale.ENGLISH, "\u00b1%,.2f", ProgressSvg.Z95 * f.varStderr))
        .withSvg(ErrorBarSvg.render(f.var, f.varStderr));
  }

  private static RiskTable.Cell trafficLight(BacktestInfo b) {
    String text =
        (b.zone == null ? "no zone" : b.zone)
            + " ("
            + (b.exceptions == null ? "?" : b.exceptions)
            + " of "
            + b.observations
            + ", "
            + b.businessDate
            + ")";
    return RiskTable.Cell.styled(text, b.zone == null ? null : "zone zone-" + zoneClass(b.zone));
  }

  private static String zoneClass(String zone) {
    return switch (zone) {
      case "green", "yellow", "red" -> zone;
      default -> "other";
    };
  }

  static String percent(java.math.BigDecimal confidence) {
    return confidence.movePointRight(2).stripTrailingZeros().toPlainString() + "%";
  }

  static int depth(String node) {
    return Math.min(5, (int) node.chars().filter(c -> c == '/').count());
  }

  static String nodeLink(String context, String node, LocalDate date) {
    return context + "/risk/node?node=" + encode(node) + "&date=" + date;
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
