package io.gantry.server.internal.risk.tables;

import io.gantry.server.internal.risk.BacktestFigure;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks superseded backtests by the rule {@link Supersession} applies to VaR figures: of the runs
 * that give a backtest for the same data source, business date, node, confidence level and P&amp;L
 * type, the one staged out last is current (without a stage-out time: older than any with one; the
 * same time: the larger run id wins).
 */
public final class BacktestSupersession {
  private static final Comparator<BacktestFigure> AGE =
      Comparator.comparing(
              BacktestFigure::stagedOutAt,
              Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
          .thenComparing(BacktestFigure::runId);

  private BacktestSupersession() {}

  /** {@code figures} in their order, each superseded one with the run id of the current one. */
  public static List<BacktestFigure> mark(List<BacktestFigure> figures) {
    Map<Key, BacktestFigure> latest = new LinkedHashMap<>();
    for (BacktestFigure f : figures) {
      latest.merge(key(f), f, (a, b) -> AGE.compare(a, b) >= 0 ? a : b);
    }
    List<BacktestFigure> marked = new ArrayList<>(figures.size());
    for (BacktestFigure f : figures) {
      String current = latest.get(key(f)).runId();
      marked.add(
          current.equals(f.runId())
              ? f
              : new BacktestFigure(
                  f.dataSource(),
                  f.runId(),
                  f.businessDate(),
                  f.node(),
                  f.confidence(),
                  f.pnlType(),
                  f.windowDays(),
                  f.observations(),
                  f.exceptions(),
                  f.expectedExceptions(),
                  f.zone(),
                  f.kupiecPValue(),
                  f.independencePValue(),
                  f.conditionalCoveragePValue(),
                  f.firstDate(),
                  f.lastDate(),
                  f.stagedOutAt(),
                  current));
    }
    return marked;
  }

  private static Key key(BacktestFigure f) {
    return new Key(
        f.dataSource(),
        f.businessDate(),
        f.node(),
        f.confidence().stripTrailingZeros(),
        f.pnlType());
  }

  private record Key(
      String dataSource, LocalDate businessDate, String node, BigDecimal confidence, String pnl) {}
}
