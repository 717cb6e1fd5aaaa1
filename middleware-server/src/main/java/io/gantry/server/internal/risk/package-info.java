/**
 * The morning risk view's server side (docs/risk-view.md): VaR and expected shortfall by business
 * date, node, confidence level and method, read from the configured results data sources ({@code
 * risk.results-data-sources}), never from job directories, which retention removes. The public face
 * is {@link io.gantry.server.internal.risk.RiskResults} and its two records; the SQL lives in
 * {@code risk.internal}.
 */
package io.gantry.server.internal.risk;
