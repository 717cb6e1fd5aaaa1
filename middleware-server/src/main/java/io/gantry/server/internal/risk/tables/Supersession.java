package io.gantry.server.internal.risk.tables;

import io.gantry.server.internal.risk.VarFigure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks superseded figures (docs/risk-view.md, "Results history"): of the runs that give a figure
 * for the same data source, business date, node, confidence level and method, the one staged out
 * last is current and the others are superseded by it. Every figure stays in the answer. Runs
 * without a stage-out time (results loaded another way) count as older than any with one; between
 * two with the same time the larger run id wins, so the answer never depends on row order.
 */
public final class Supersession {
  private static final Comparator<VarFigure> AGE =
      Comparator.comparing(
              (VarFigure f) -> f.run().stagedOutAt(),
              Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
          .thenComparing(f -> f.run().runId());

  private Supersession() {}

  /** {@code figures} in their order, each superseded one with the run id of the current one. */
  public static List<VarFigure> mark(List<VarFigure> figures) {
    Map<Key, VarFigure> latest = new LinkedHashMap<>();
    for (VarFigure f : figures) {
      latest.merge(key(f), f, (a, b) -> AGE.compare(a, b) >= 0 ? a : b);
    }
    List<VarFigure> marked = new ArrayList<>(figures.size());
    for (VarFigure f : figures) {
      VarFigure current = latest.get(key(f));
      String currentRun = current.run().runId();
      marked.add(currentRun.equals(f.run().runId()) ? f : superseded(f, currentRun));
    }
    return marked;
  }

  private static VarFigure superseded(VarFigure f, String by) {
    return new VarFigure(
        f.dataSource(),
        f.businessDate(),
        f.node(),
        f.confidence(),
        f.method(),
        f.var(),
        f.expectedShortfall(),
        f.varStderr(),
        f.esStderr(),
        f.run(),
        by);
  }

  private static Key key(VarFigure f) {
    return new Key(
        f.dataSource(),
        f.businessDate(),
        f.node(),
        f.confidence().stripTrailingZeros(),
        f.method());
  }

  private record Key(
      String dataSource,
      java.time.LocalDate businessDate,
      String node,
      java.math.BigDecimal confidence,
      String method) {}
}
