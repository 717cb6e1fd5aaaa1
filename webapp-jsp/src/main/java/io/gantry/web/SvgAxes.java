package io.gantry.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the pages' SVG plots share: the linear scale, round tick values, tick labels and their
 * marks, and escaping text for SVG. One owner, so every plot labels its axes alike.
 */
final class SvgAxes {
  private SvgAxes() {}

  /** Maps a value range linearly onto a pixel range. */
  record Scale(double from, double to, double pixelFrom, double pixelTo) {
    double at(double value) {
      return pixelFrom + (value - from) / (to - from) * (pixelTo - pixelFrom);
    }
  }

  /** About {@code count} round values (1, 2 or 5 times a power of ten) from lo to hi. */
  static List<Double> niceTicks(double lo, double hi, int count) {
    double span = hi - lo;
    if (!(span > 0)) {
      return List.of(lo);
    }
    double raw = span / count;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double step =
        magnitude
            * (raw / magnitude < 1.5
                ? 1
                : raw / magnitude < 3.5 ? 2 : raw / magnitude < 7.5 ? 5 : 10);
    List<Double> ticks = new ArrayList<>();
    for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
      ticks.add(Math.abs(t) < step * 1e-9 ? 0.0 : t);
    }
    return ticks;
  }

  /** A P&L amount or a count with thousands separators, decimals only where needed. */
  static String amount(double value) {
    double magnitude = Math.abs(value);
    String pattern =
        magnitude >= 100 || value == Math.rint(value)
            ? "%,.0f"
            : magnitude >= 1 ? "%,.1f" : "%,.3f";
    String text = String.format(Locale.ENGLISH, pattern, value);
    return text.matches("-0(\\.0+)?") ? text.substring(1) : text;
  }

  /** Marks and amount labels on a vertical axis at x = {@code left}, one per tick. */
  static void verticalTicks(StringBuilder svg, int left, Scale y, List<Double> ticks) {
    for (double t : ticks) {
      double py = y.at(t);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>"
                  + "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" stroke=\"none\">%s</text>%n",
              left - 5,
              py,
              left,
              py,
              left - 8,
              py + 4,
              escape(amount(t))));
    }
  }

  /** Marks and amount labels below a horizontal axis at y = {@code base}, one per tick. */
  static void horizontalTicks(StringBuilder svg, double base, Scale x, List<Double> ticks) {
    for (double t : ticks) {
      double px = x.at(t);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
                  + "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" stroke=\"none\">%s</text>%n",
              px,
              base,
              px,
              base + 5,
              px,
              base + 19,
              escape(amount(t))));
    }
  }

  /** Text made safe for SVG content and attribute values. */
  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
