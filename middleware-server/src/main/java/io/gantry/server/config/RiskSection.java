package io.gantry.server.config;

import java.util.List;

/**
 * The morning risk view (configuration.md, "Risk view"; docs/risk-view.md): which named data
 * sources hold VaR results that the server reads back for users.
 */
final class RiskSection {
  private RiskSection() {}

  static final Setting<List<String>> RESULTS_DATA_SOURCES =
      Setting.of("risk.results-data-sources", SettingType.words())
          .shownDefault("`demo-market` when the demo is on, else none")
          .means(
              "named data sources whose VaR result tables (var_run, var_node_summary) the risk"
                  + " view reads; a user sees those of them they may use");

  /** The configured names, or null when unset (the server then picks its default). */
  static List<String> read(SettingValues values) {
    return values.find(RESULTS_DATA_SOURCES).orElse(null);
  }
}
