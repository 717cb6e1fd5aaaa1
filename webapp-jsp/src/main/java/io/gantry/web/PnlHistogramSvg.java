package io.gantry.web;

import static io.gantry.web.SvgAxes.amount;
import static io.gantry.web.SvgAxes.escape;
import static io.gantry.web.SvgAxes.horizontalTicks;
import static io.gantry.web.SvgAxes.niceTicks;
import static io.gantry.web.SvgAxes.verticalTicks;

import io.gantry.web.SvgAxes.Scale;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The P&L distribution of a VaR run as an SVG drawn on the server: one bar a histogram bin, the x
 * axis P&L and the y axis the number of scenarios, each with ticks at round values, and each VaR
 * level a vertical line at P&L = -VaR with its label. No {@code style} attributes (the content
 * security policy forbids them): colours are presentation attributes and CSS classes. The drawing
 * has a {@code viewBox} and width 100%, so it scales to the page; its title and description name
 * what it shows, and the page's table carries the numbers.
 */
final class PnlHistogramSvg {
  static final int WIDTH = 800;
  static final int HEIGHT = 360;
  static final int LEFT = 70;

  /** Room for half the widest x tick label ("1,000,000") right of the last tick. */
  static final int RIGHT = 45;

  private static final int TOP = 20;
  private static final int BOTTOM = 50;

  private PnlHistogramSvg() {}

  /** The SVG element, or an empty string when there are no bins to draw. */
  static String render(List<VarResults.Bin> bins, List<VarResults.Level> levels) {
    if (bins.isEmpty()) {
      return "";
    }
    double lo = bins.get(0).lower();
    double hi = bins.get(bins.size() - 1).upper();
    for (VarResults.Level level : levels) {
      lo = Math.min(lo, -level.var());
      hi = Math.max(hi, -level.var());
    }
    if (hi <= lo) {
      hi = lo + 1;
    }
    long maxCount = Math.max(1, bins.stream().mapToLong(VarResults.Bin::count).max().orElse(1));
    Scale x = new Scale(lo, hi, LEFT, WIDTH - RIGHT);
    double yTop =
        niceTicks(0, (double) maxCount, 5).stream()
            .mapToDouble(Double::doubleValue)
            .max()
            .orElse((double) maxCount);
    Scale y = new Scale(0, Math.max(yTop, (double) maxCount), HEIGHT - BOTTOM, TOP);

    StringBuilder svg = new StringBuilder();
    svg.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pnl-plot\" role=\"img\" width=\"100%\"")
        .append(" viewBox=\"0 0 ")
        .append(WIDTH)
        .append(' ')
        .append(HEIGHT)
        .append("\"")
        .append(" preserveAspectRatio=\"xMidYMid meet\" aria-labelledby=\"pnl-title pnl-desc\"")
        .append(" aria-label=\"")
        .append(escape(title()))
        .append("\">\n");
    svg.append("<title id=\"pnl-title\">").append(escape(title())).append("</title>\n");
    svg.append("<desc id=\"pnl-desc\">")
        .append(escape(description(bins, levels)))
        .append("</desc>\n");
    bars(svg, bins, x, y);
    xAxis(svg, x, lo, hi);
    yAxis(svg, y, maxCount);
    varMarkers(svg, levels, x);
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static String title() {
    return "Distribution of the simulated profit and loss";
  }

  private static String description(List<VarResults.Bin> bins, List<VarResults.Level> levels) {
    long scenarios = bins.stream().mapToLong(VarResults.Bin::count).sum();
    StringBuilder d =
        new StringBuilder(
            String.format(
                Locale.ENGLISH,
                "Histogram of %,d scenarios in %d bins from %s to %s.",
                scenarios,
                bins.size(),
                amount(bins.get(0).lower()),
                amount(bins.get(bins.size() - 1).upper())));
    for (VarResults.Level level : levels) {
      d.append(" VaR ")
          .append(level.percent())
          .append(" marked at ")
          .append(amount(-level.var()))
          .append('.');
    }
    return d.toString();
  }

  private static void bars(StringBuilder svg, List<VarResults.Bin> bins, Scale x, Scale y) {
    svg.append("<g class=\"bars\" fill=\"#7a9cc6\">\n");
    for (VarResults.Bin bin : bins) {
      double left = x.at(bin.lower());
      double width = Math.max(0.5, x.at(bin.upper()) - left);
      double top = y.at((double) bin.count());
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\">"
                  + "<title>%s to %s: %,d</title></rect>%n",
              left,
              top,
              width,
              y.at(0) - top,
              escape(amount(bin.lower())),
              escape(amount(bin.upper())),
              bin.count()));
    }
    svg.append("</g>\n");
  }

  private static void xAxis(StringBuilder svg, Scale x, double lo, double hi) {
    double base = HEIGHT - BOTTOM;
    svg.append("<g class=\"axis x-axis\" stroke=\"#5b6675\" fill=\"#3b4552\" font-size=\"12\">\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>%n",
            LEFT,
            base,
            WIDTH - RIGHT,
            base));
    horizontalTicks(svg, base, x, niceTicks(lo, hi, 6));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text class=\"axis-title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
                + " stroke=\"none\">P&amp;L</text>%n",
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 8));
    svg.append("</g>\n");
  }

  private static void yAxis(StringBuilder svg, Scale y, long maxCount) {
    svg.append("<g class=\"axis y-axis\" stroke=\"#5b6675\" fill=\"#3b4552\" font-size=\"12\">\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>%n",
            LEFT,
            TOP,
            LEFT,
            HEIGHT - BOTTOM));
    verticalTicks(svg, LEFT, y, niceTicks(0, (double) maxCount, 5));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text class=\"axis-title\" x=\"14\" y=\"%.1f\" text-anchor=\"middle\""
                + " stroke=\"none\" transform=\"rotate(-90 14 %.1f)\">Scenarios</text>%n",
            (TOP + HEIGHT - BOTTOM) / 2.0,
            (TOP + HEIGHT - BOTTOM) / 2.0));
    svg.append("</g>\n");
  }

  /** Lines at -VaR; labels stacked from the top, highest confidence (furthest left) first. */
  private static void varMarkers(StringBuilder svg, List<VarResults.Level> levels, Scale x) {
    svg.append("<g class=\"var-markers\" font-size=\"12\">\n");
    List<VarResults.Level> byConfidence = new ArrayList<>(levels);
    java.util.Collections.reverse(byConfidence);
    int row = 0;
    for (VarResults.Level level : byConfidence) {
      double px = x.at(-level.var());
      String label = "VaR " + level.percent();
      boolean roomLeft = px - LEFT > 80;
      svg.append(
          String.format(
              Locale.ROOT,
              "<g class=\"var-marker\" data-confidence=\"%s\">"
                  + "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#b3261e\" stroke-width=\"2\""
                  + " stroke-dasharray=\"6 4\"/>"
                  + "<text x=\"%.2f\" y=\"%d\" text-anchor=\"%s\" fill=\"#b3261e\" stroke=\"#fff\" stroke-width=\"3\""
                  + " paint-order=\"stroke\">%s</text></g>%n",
              escape(level.confidence().toPlainString()),
              px,
              TOP,
              px,
              HEIGHT - BOTTOM,
              roomLeft ? px - 4 : px + 4,
              TOP + 12 + 15 * row,
              roomLeft ? "end" : "start",
              escape(label)));
      row++;
    }
    svg.append("</g>\n");
  }
}
