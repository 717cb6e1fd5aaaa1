package io.gantry.server.internal.risk;

import java.math.BigDecimal;

/**
 * One position's contribution to a node's VaR and expected shortfall in one run, as the dashboard
 * lists it (a row of {@code var_position_contribution}, mcvar's contributions.csv).
 *
 * @param marginalVar the change of the node's VaR per unit of the position, or null where the run
 *     gave none
 */
public record PositionContributionRow(
    String dataSource,
    String runId,
    String node,
    String positionId,
    BigDecimal confidence,
    double varContribution,
    double esContribution,
    Double marginalVar) {}
