package io.gantry.web;

import java.util.Locale;

/** One confidence level of a VaR run as the results table shows it, with thousands separators. */
public record VarLevelRow(
    String confidence,
    String var,
    String expectedShortfall,
    String mean,
    String stddev,
    String scenarios) {
  static VarLevelRow of(VarResults.Level l) {
    return new VarLevelRow(
        l.percent(),
        money(l.var()),
        money(l.expectedShortfall()),
        money(l.mean()),
        money(l.stddev()),
        String.format(Locale.ENGLISH, "%,d", l.scenarios()));
  }

  /** Two decimals and thousands separators: 1,234,567.89. */
  static String money(double value) {
    return String.format(Locale.ENGLISH, "%,.2f", value);
  }
}
