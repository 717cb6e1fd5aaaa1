package io.gantry.server.internal.risk;

import io.gantry.server.internal.risk.VarExplain.Component;
import io.gantry.server.internal.risk.VarExplain.ComponentAmount;
import io.gantry.server.internal.risk.VarExplain.FactorChange;
import io.gantry.server.internal.risk.VarExplain.PositionChange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Contribution-based attribution of a VaR change (docs/risk-view.md, "Explain"), from the Euler
 * contributions of each date's run (Tasche, "Capital allocation to business units and
 * sub-portfolios: the Euler principle"): a position's contribution is C = q m, its quantity times
 * its marginal VaR, and the contributions of a node's positions add up to the node's VaR. Between
 * the two dates:
 *
 * <ul>
 *   <li>a position only on the second date adds its contribution C2 (new), one only on the first
 *       removes C1 (matured or closed);
 *   <li>a held position's change C2 - C1 = (q2 - q1) m1 + q2 (m2 - m1): its quantity change at the
 *       first date's marginal VaR, and the change of its marginal VaR at today's quantity (market
 *       moves, the scenarios' window and the position's ageing, which stored contributions cannot
 *       tell apart);
 *   <li>the residual, VaR2 - VaR1 less the four, is what the stored contributions do not account
 *       for (their rounding, positions missing from them): shown, never spread.
 * </ul>
 *
 * The components add up to VaR2 - VaR1 by construction.
 */
public final class VarExplainer {
  private static final Comparator<PositionChange> BY_SIZE =
      Comparator.comparingDouble((PositionChange p) -> -Math.abs(p.change()))
          .thenComparing(PositionChange::positionId);

  private VarExplainer() {}

  /**
   * @param from the node's figure on the first date; {@code fromContributions} its run's position
   *     contributions to that node at the figure's confidence level, by position id
   * @param top how many positions and factors to list
   */
  public static VarExplain explain(
      VarFigure from,
      Map<String, PositionContribution> fromContributions,
      VarFigure to,
      Map<String, PositionContribution> toContributions,
      int top) {
    Map<Component, double[]> sums = new EnumMap<>(Component.class);
    Map<Component, Integer> counts = new EnumMap<>(Component.class);
    for (Component c : Component.values()) {
      sums.put(c, new double[1]);
      counts.put(c, 0);
    }
    List<PositionChange> changes = new ArrayList<>();
    TreeSet<String> ids = new TreeSet<>(fromContributions.keySet());
    ids.addAll(toContributions.keySet());
    for (String id : ids) { // sorted, so the sums do not depend on the rows' order
      PositionChange change = change(id, fromContributions.get(id), toContributions.get(id));
      changes.add(change);
      switch (change.status()) {
        case "new" -> add(sums, counts, Component.NEW_POSITIONS, change.change());
        case "matured" -> add(sums, counts, Component.MATURED_POSITIONS, change.change());
        default -> {
          add(sums, counts, Component.QUANTITY_CHANGES, change.quantityEffect());
          add(sums, counts, Component.MARKET_AND_TIME, change.marketEffect());
        }
      }
    }
    double explained = 0;
    List<ComponentAmount> components = new ArrayList<>();
    for (Component c : Component.values()) {
      if (c == Component.RESIDUAL) {
        components.add(new ComponentAmount(c, (to.var() - from.var()) - explained, 0));
      } else {
        explained += sums.get(c)[0];
        components.add(new ComponentAmount(c, sums.get(c)[0], counts.get(c)));
      }
    }
    changes.sort(BY_SIZE);
    return new VarExplain(
        from,
        to,
        List.copyOf(components),
        List.copyOf(changes.subList(0, Math.min(top, changes.size()))),
        factors(changes, top));
  }

  private static void add(
      Map<Component, double[]> sums, Map<Component, Integer> counts, Component c, double amount) {
    sums.get(c)[0] += amount;
    counts.merge(c, 1, Integer::sum);
  }

  private static PositionChange change(
      String id, PositionContribution before, PositionContribution after) {
    if (before == null) {
      double c2 = after.contribution();
      return new PositionChange(id, "new", after.factor(), null, c2, 0, 0, c2);
    }
    if (after == null) {
      double c1 = before.contribution();
      return new PositionChange(id, "matured", before.factor(), c1, null, 0, 0, -c1);
    }
    double c1 = before.contribution();
    double c2 = after.contribution();
    double quantityEffect = quantityEffect(before, after);
    String factor = after.factor() != null ? after.factor() : before.factor();
    return new PositionChange(
        id, "held", factor, c1, c2, quantityEffect, (c2 - c1) - quantityEffect, c2 - c1);
  }

  /**
   * (q2 - q1) m1. A position held with quantity 0 on the first date (no marginal VaR) changes by
   * its quantity alone; where either quantity cannot be told (a marginal VaR of 0) the quantity
   * effect is 0 and the whole change counts as market.
   */
  private static double quantityEffect(PositionContribution before, PositionContribution after) {
    if (before.marginalVar() == null) {
      return after.contribution() - before.contribution();
    }
    Double q1 = before.quantity();
    Double q2 = after.quantity();
    if (q1 == null || q2 == null) {
      return 0;
    }
    return (q2 - q1) * before.marginalVar();
  }

  private static List<FactorChange> factors(List<PositionChange> changes, int top) {
    Map<String, double[]> sums = new TreeMap<>();
    Map<String, Integer> counts = new TreeMap<>();
    for (PositionChange p : changes) {
      if (p.factor() != null) {
        sums.computeIfAbsent(p.factor(), f -> new double[1])[0] += p.change();
        counts.merge(p.factor(), 1, Integer::sum);
      }
    }
    List<FactorChange> factors = new ArrayList<>();
    sums.forEach((f, s) -> factors.add(new FactorChange(f, s[0], counts.get(f))));
    factors.sort(
        Comparator.comparingDouble((FactorChange f) -> -Math.abs(f.change()))
            .thenComparing(FactorChange::factor));
    return List.copyOf(factors.subList(0, Math.min(top, factors.size())));
  }
}
