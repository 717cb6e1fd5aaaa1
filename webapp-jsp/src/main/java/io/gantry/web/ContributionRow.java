package io.gantry.web;

/** One position's contribution to VaR, for the results page's top list. */
public record ContributionRow(String position, String contribution) {
  static ContributionRow of(VarResults.Contribution c) {
    return new ContributionRow(c.positionId(), VarLevelRow.money(c.contribution()));
  }
}
