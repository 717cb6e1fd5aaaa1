package io.gantry.server.internal.risk;

/**
 * One position's Euler contribution to a node's VaR in one run (a row of {@code
 * var_position_contribution}, mcvar's contributions.csv, node-programs/README.md).
 *
 * @param factor the position's primary risk factor where the data source's book says it (its {@code
 *     factor_id}, else its curve, else its currency), or null
 * @param marginalVar the contribution per unit of the position (contribution / quantity), null
 *     where mcvar left it empty because the quantity is 0
 */
public record PositionContribution(
    String positionId, double contribution, Double marginalVar, String factor) {

  /**
   * The position's quantity as mcvar's figures imply it: contribution / marginal VaR; 0 where the
   * marginal VaR is empty (mcvar leaves it empty exactly when the quantity is 0); null where it
   * cannot be told (a marginal VaR of 0, so a contribution of 0, for any quantity).
   */
  public Double quantity() {
    if (marginalVar == null) {
      return 0.0;
    }
    return marginalVar == 0.0 ? null : contribution / marginalVar;
  }
}
