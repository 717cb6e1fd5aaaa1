package io.gantry.web;

import io.gantry.jsdl.JobProgress;
import java.util.Locale;

/** One figure of a job's last progress checkpoint as the live-results table shows it. */
public record ProgressRow(String figure, String value, String stderr, String relative) {
  static ProgressRow of(JobProgress.Figure f) {
    boolean has = f.stderr().isPresent();
    double se = f.stderr().orElse(0);
    return new ProgressRow(
        f.name(),
        VarLevelRow.money(f.value()),
        has ? VarLevelRow.money(se) : "",
        has && f.value() != 0
            ? String.format(Locale.ENGLISH, "%.2f%%", 100 * Math.abs(se / f.value()))
            : "");
  }
}
