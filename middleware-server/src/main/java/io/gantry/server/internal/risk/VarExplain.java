package io.gantry.server.internal.risk;

import java.util.List;

/**
 * Why one node's VaR changed between two business dates (docs/risk-view.md, "Explain"): the change
 * split into components that add up to it exactly, the positions and risk factors that moved it
 * most. Built by {@link VarExplainer} from the current figures of the two dates and their runs'
 * position contributions.
 *
 * @param from the node's current figure on the first date
 * @param to the node's current figure on the second date, same data source, confidence and method
 * @param components in the order of {@link Component}, adding up to {@code to.var() - from.var()}
 * @param topPositions the positions whose contribution changed most, largest absolute change first
 * @param topFactors the same summed by the positions' primary risk factor; empty where the data
 *     source has no book ({@code position} table) to say which factor a position has
 */
public record VarExplain(
    VarFigure from,
    VarFigure to,
    List<ComponentAmount> components,
    List<PositionChange> topPositions,
    List<FactorChange> topFactors) {

  /** The VaR change, {@code to.var() - from.var()}. */
  public double change() {
    return to.var() - from.var();
  }

  /** The parts of the change, in the order they are listed. */
  public enum Component {
    NEW_POSITIONS("new positions"),
    MATURED_POSITIONS("matured or closed positions"),
    QUANTITY_CHANGES("held: quantity changes"),
    MARKET_AND_TIME("held: market moves and time"),
    RESIDUAL("residual/interaction");

    private final String label;

    Component(String label) {
      this.label = label;
    }

    /** The name the answers and the command line show. */
    public String label() {
      return label;
    }
  }

  /**
   * @param positions how many positions the component covers (0 for the residual)
   */
  public record ComponentAmount(Component component, double amount, int positions) {}

  /**
   * One position's part in the change.
   *
   * @param status {@code new} (only on the second date), {@code matured} (only on the first) or
   *     {@code held}
   * @param fromContribution its contribution on the first date, null where it was not held
   * @param toContribution the same on the second date
   * @param quantityEffect the part of its change due to its quantity (0 for new and matured)
   * @param marketEffect the rest of its change for a held position (0 for new and matured)
   */
  public record PositionChange(
      String positionId,
      String status,
      String factor,
      Double fromContribution,
      Double toContribution,
      double quantityEffect,
      double marketEffect,
      double change) {}

  /** The change of the contributions of the positions whose primary factor is {@code factor}. */
  public record FactorChange(String factor, double change, int positions) {}
}
