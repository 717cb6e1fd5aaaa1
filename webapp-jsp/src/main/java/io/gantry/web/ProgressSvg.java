package io.gantry.web;

import static io.gantry.web.SvgAxes.escape;
import static io.gantry.web.SvgAxes.horizontalTicks;
import static io.gantry.web.SvgAxes.niceTicks;
import static io.gantry.web.SvgAxes.verticalTicks;

import io.gantry.jsdl.JobProgress;
import io.gantry.web.SvgAxes.Scale;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A running job's headline estimate (the first figure of its progress file, docs/live-results.md)
 * against the work done, drawn on the server: the estimate as a line through its checkpoints and
 * its 95% error band, estimate +/- 1.96 standard errors (the normal approximation of the
 * estimators' sampling distribution). Presentation attributes only, as {@link PnlHistogramSvg}; the
 * page's table carries the numbers.
 */
final class ProgressSvg {
  static final int WIDTH = 800;
  static final int HEIGHT = 300;
  private static final int LEFT = 80;
  private static final int RIGHT = 45;
  private static final int TOP = 20;
  private static final int BOTTOM = 50;

  /** The band's half-width in standard errors: a two-sided 95% normal interval. */
  static final double Z95 = 1.96;

  private ProgressSvg() {}

  /** The SVG element, or an empty string when no checkpoint has the headline figure. */
  static String render(JobProgress progress) {
    String headline = progress.headline().orElse(null);
    if (headline == null) {
      return "";
    }
    Map<Long, JobProgress.Figure> series = progress.series(headline);
    double xHi = progress.latest().orElseThrow().total().orElse(0);
    double yLo = Double.POSITIVE_INFINITY;
    double yHi = Double.NEGATIVE_INFINITY;
    for (Map.Entry<Long, JobProgress.Figure> p : series.entrySet()) {
      double half = Z95 * p.getValue().stderr().orElse(0);
      yLo = Math.min(yLo, p.getValue().value() - half);
      yHi = Math.max(yHi, p.getValue().value() + half);
      xHi = Math.max(xHi, p.getKey());
    }
    if (!(xHi > 0)) {
      xHi = 1;
    }
    if (!(yHi > yLo)) {
      yLo -= 1;
      yHi += 1;
    }
    List<Double> yTicks = niceTicks(yLo, yHi, 5);
    Scale x = new Scale(0, xHi, LEFT, WIDTH - RIGHT);
    Scale y = new Scale(yLo, yHi, HEIGHT - BOTTOM, TOP);
    String title = "Convergence of " + headline;
    StringBuilder svg = new StringBuilder();
    svg.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"progress-plot\" role=\"img\""
                    + " width=\"100%%\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"xMidYMid meet\""
                    + " aria-labelledby=\"progress-title progress-desc\">%n",
                WIDTH,
                HEIGHT))
        .append("<title id=\"progress-title\">")
        .append(escape(title))
        .append("</title>\n<desc id=\"progress-desc\">")
        .append(escape(description(headline, series)))
        .append("</desc>\n");
    band(svg, series, x, y);
    line(svg, series, x, y);
    axes(svg, x, y, xHi, yTicks, progress.latest().orElseThrow().unit());
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static String description(String headline, Map<Long, JobProgress.Figure> series) {
    return headline
        + " at "
        + series.size()
        + " checkpoints, with a band of "
        + Z95
        + " standard errors either side";
  }

  /** value + 1.96 se left to right, then value - 1.96 se back: one closed polygon. */
  private static void band(
      StringBuilder svg, Map<Long, JobProgress.Figure> series, Scale x, Scale y) {
    List<String> upper = new ArrayList<>();
    List<String> lower = new ArrayList<>();
    for (Map.Entry<Long, JobProgress.Figure> p : series.entrySet()) {
      double v = p.getValue().value();
      double half = Z95 * p.getValue().stderr().orElse(0);
      upper.add(point(x.at(p.getKey()), y.at(v + half)));
      lower.add(0, point(x.at(p.getKey()), y.at(v - half)));
    }
    upper.addAll(lower);
    svg.append("<polygon class=\"error-band\" fill=\"#9ec5f0\" fill-opacity=\"0.6\" points=\"")
        .append(String.join(" ", upper))
        .append("\"/>\n");
  }

  private static void line(
      StringBuilder svg, Map<Long, JobProgress.Figure> series, Scale x, Scale y) {
    List<String> points = new ArrayList<>();
    series.forEach((done, f) -> points.add(point(x.at(done), y.at(f.value()))));
    svg.append("<polyline class=\"estimate\" fill=\"none\" stroke=\"#1f4e8c\" stroke-width=\"2\"")
        .append(" points=\"")
        .append(String.join(" ", points))
        .append("\"/>\n<g class=\"checkpoints\" fill=\"#1f4e8c\">");
    series.forEach(
        (done, f) ->
            svg.append(
                String.format(
                    Locale.ROOT,
                    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" data-done=\"%d\"/>",
                    x.at(done),
                    y.at(f.value()),
                    done)));
    svg.append("</g>\n");
  }

  private static void axes(
      StringBuilder svg, Scale x, Scale y, double xHi, List<Double> yTicks, String unit) {
    double base = HEIGHT - BOTTOM;
    svg.append("<g class=\"axis\" stroke=\"#5b6675\" fill=\"#3b4552\" font-size=\"12\">\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\""
                + " y2=\"%.1f\"/>%n",
            LEFT,
            base,
            WIDTH - RIGHT,
            base,
            LEFT,
            TOP,
            LEFT,
            base));
    horizontalTicks(svg, base, x, niceTicks(0, xHi, 6));
    verticalTicks(svg, LEFT, y, yTicks);
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" stroke=\"none\">%s done</text>%n",
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 8,
            escape(unit.isEmpty() ? "work" : unit)));
    svg.append("</g>\n");
  }

  private static String point(double px, double py) {
    return String.format(Locale.ROOT, "%.2f,%.2f", px, py);
  }
}
