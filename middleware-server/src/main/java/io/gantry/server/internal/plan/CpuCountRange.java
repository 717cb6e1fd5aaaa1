package io.gantry.server.internal.plan;

import io.gantry.jsdl.model.core.BoundaryType;
import io.gantry.jsdl.model.core.ExactType;
import io.gantry.jsdl.model.core.RangeType;
import io.gantry.jsdl.model.core.RangeValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A JSDL {@code RangeValueType} (GFD.56 6.3) read as a set of CPU (process) counts: the union of
 * its Exact values (within their epsilon), its UpperBoundedRange, LowerBoundedRange and Range
 * elements, each bound inclusive unless {@code exclusiveBound="true"}. Gantry picks one whole count
 * from it:
 *
 * <ol>
 *   <li>the count the job would get anyway (its own NumberOfProcesses, or the application's
 *       default) when the range allows it;
 *   <li>else the allowed count nearest to that one (the nearer bound or Exact value), the smaller
 *       of two equally near;
 *   <li>else none: the range allows no whole count from 1 up, and the job is refused.
 * </ol>
 */
final class CpuCountRange {
  private final RangeValueType range;

  CpuCountRange(RangeValueType range) {
    this.range = range;
  }

  /** Whether {@code count} lies in the range. */
  boolean allows(double count) {
    for (ExactType e : range.getExact()) {
      double epsilon = e.getEpsilon() == null ? 0 : Math.abs(e.getEpsilon());
      if (Math.abs(count - e.getValue()) <= epsilon) {
        return true;
      }
    }
    if (range.getUpperBoundedRange() != null && below(count, range.getUpperBoundedRange())) {
      return true;
    }
    if (range.getLowerBoundedRange() != null && above(count, range.getLowerBoundedRange())) {
      return true;
    }
    for (RangeType r : range.getRange()) {
      if (above(count, r.getLowerBound()) && below(count, r.getUpperBound())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The whole count from 1 to {@code max} to use, preferring {@code preferred}; empty if none is
   * allowed.
   */
  Optional<Integer> choose(int preferred, int max) {
    if (preferred >= 1 && preferred <= max && allows(preferred)) {
      return Optional.of(preferred);
    }
    return candidates(max).stream()
        .filter(this::allows)
        .min(
            (a, b) ->
                Math.abs(a - preferred) != Math.abs(b - preferred)
                    ? Integer.compare(Math.abs(a - preferred), Math.abs(b - preferred))
                    : Integer.compare(a, b));
  }

  /**
   * The whole counts next to every bound and Exact value: the nearest allowed count is one of them.
   */
  private Set<Integer> candidates(int max) {
    List<Double> edges = new ArrayList<>();
    range.getExact().forEach(e -> edges.add(e.getValue()));
    if (range.getUpperBoundedRange() != null) {
      edges.add(range.getUpperBoundedRange().getValue());
    }
    if (range.getLowerBoundedRange() != null) {
      edges.add(range.getLowerBoundedRange().getValue());
    }
    range
        .getRange()
        .forEach(
            r -> {
              edges.add(r.getLowerBound().getValue());
              edges.add(r.getUpperBound().getValue());
            });
    Set<Integer> result = new TreeSet<>(List.of(1, max));
    for (double edge : edges) {
      for (double c :
          new double[] {
            Math.floor(edge) - 1, Math.floor(edge), Math.ceil(edge), Math.ceil(edge) + 1
          }) {
        if (c >= 1 && c <= max) {
          result.add((int) c);
        }
      }
    }
    return result;
  }

  /** The range as the standard writes it, for messages: {@code 4}, {@code >= 2}, {@code 2..8}. */
  String describe() {
    List<String> parts = new ArrayList<>();
    range
        .getExact()
        .forEach(
            e ->
                parts.add(
                    number(e.getValue())
                        + (e.getEpsilon() == null || e.getEpsilon() == 0
                            ? ""
                            : " ± " + number(e.getEpsilon()))));
    if (range.getUpperBoundedRange() != null) {
      parts.add(bound("<", range.getUpperBoundedRange()));
    }
    if (range.getLowerBoundedRange() != null) {
      parts.add(bound(">", range.getLowerBoundedRange()));
    }
    range
        .getRange()
        .forEach(
            r ->
                parts.add(
                    number(r.getLowerBound().getValue())
                        + ".."
                        + number(r.getUpperBound().getValue())));
    return String.join(" or ", parts);
  }

  private static boolean below(double count, BoundaryType upper) {
    return Boolean.TRUE.equals(upper.isExclusiveBound())
        ? count < upper.getValue()
        : count <= upper.getValue();
  }

  private static boolean above(double count, BoundaryType lower) {
    return Boolean.TRUE.equals(lower.isExclusiveBound())
        ? count > lower.getValue()
        : count >= lower.getValue();
  }

  private static String bound(String op, BoundaryType b) {
    return op + (Boolean.TRUE.equals(b.isExclusiveBound()) ? " " : "= ") + number(b.getValue());
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
