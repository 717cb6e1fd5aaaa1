package io.gantry.web;

import static io.gantry.web.SvgAxes.escape;

import java.util.Locale;

/**
 * A small drawing of a Monte Carlo estimate's 95% interval, VaR +/- 1.96 standard errors (the
 * normal approximation of the estimator's sampling distribution, as {@link ProgressSvg}'s band),
 * for a dashboard cell: the whole width is VaR +/- 10%, so the bar's length shows the relative
 * error at a glance; an interval wider than that is cut at the edges (its caps then missing). Drawn
 * with presentation attributes only, as the other drawings.
 */
final class ErrorBarSvg {
  static final int WIDTH = 100;
  static final int HEIGHT = 14;

  /** Half the drawing's width, as a share of the VaR. */
  static final double HALF_SPAN = 0.10;

  private ErrorBarSvg() {}

  /** The drawing, or an empty string without a standard error or a positive VaR. */
  static String render(double var, Double stderr) {
    if (stderr == null || !(var > 0) || !(stderr >= 0)) {
      return "";
    }
    double half = ProgressSvg.Z95 * stderr;
    double lo = x(1 - half / var);
    double hi = x(1 + half / var);
    double mid = HEIGHT / 2.0;
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"error-bar\" role=\"img\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\"><title>%s</title>",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT,
            escape(
                String.format(
                    Locale.ENGLISH,
                    "95%% interval %,.2f to %,.2f (%.2f%% of the VaR either side)",
                    var - half,
                    var + half,
                    100 * half / var))));
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"0\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d5dbe3\"/>"
                + "<line class=\"interval\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\""
                + " stroke=\"#1f4e8c\" stroke-width=\"2\"/>",
            mid,
            WIDTH,
            mid,
            lo,
            mid,
            hi,
            mid));
    for (double edge : new double[] {lo, hi}) {
      if (edge > 0 && edge < WIDTH) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<line x1=\"%.2f\" y1=\"3\" x2=\"%.2f\" y2=\"%d\" stroke=\"#1f4e8c\"/>",
                edge,
                edge,
                HEIGHT - 3));
      }
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#17202e\"/></svg>",
            WIDTH / 2.0,
            mid));
    return svg.toString();
  }

  /** A multiple of the VaR as x, clipped to the drawing. */
  private static double x(double ofVar) {
    double at = (ofVar - (1 - HALF_SPAN)) / (2 * HALF_SPAN) * WIDTH;
    return Math.max(0, Math.min(WIDTH, at));
  }
}
