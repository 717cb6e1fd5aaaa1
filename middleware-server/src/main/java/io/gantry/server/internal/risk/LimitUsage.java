package io.gantry.server.internal.risk;

/** A figure against the limit in force on its business date (docs/risk-view.md, "Limits"). */
public record LimitUsage(VarFigure figure, VarLimit limit) {
  /** VaR / limit, in percent. */
  public double usagePercent() {
    return limit.usagePercent(figure);
  }

  /** A breach: the VaR is above the limit (a VaR equal to its limit, 100%, is not one). */
  public boolean breached() {
    return figure.var() > limit.limit();
  }
}
