package io.gantry.web;

import static io.gantry.web.SvgAxes.escape;
import static io.gantry.web.SvgAxes.niceTicks;
import static io.gantry.web.SvgAxes.verticalTicks;

import io.gantry.web.SvgAxes.Scale;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A node's VaR and expected shortfall against its daily P&L, drawn on the server: time runs left to
 * right, amounts up; the P&L is a thin bar a day from zero, VaR and ES are lines at -VaR and -ES
 * (the loss they speak of, below zero), and every exception ({@link NodeSeries}: a loss beyond the
 * VaR of the business day before) is a red circle on its P&L with its date and figures as a
 * tooltip. Presentation attributes only, as {@link PnlHistogramSvg} (the content security policy
 * forbids style attributes); the P&L bars are one path, so five years of days stay one element.
 */
final class VarHistorySvg {
  static final int WIDTH = 900;
  static final int HEIGHT = 360;
  private static final int LEFT = 80;
  private static final int RIGHT = 20;
  private static final int TOP = 30;
  private static final int BOTTOM = 50;
  private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyy-MM");

  private VarHistorySvg() {}

  /** The SVG element, or an empty string when the series has no day. */
  static String render(String node, String confidence, NodeSeries series) {
    List<NodeSeries.Day> days = series.days();
    if (days.isEmpty()) {
      return "";
    }
    LocalDate first = days.get(0).date();
    LocalDate last = days.get(days.size() - 1).date();
    double yLo = 0;
    double yHi = 0;
    for (NodeSeries.Day d : days) {
      for (Double v : new Double[] {d.pnl(), neg(d.var()), neg(d.es())}) {
        if (v != null) {
          yLo = Math.min(yLo, v);
          yHi = Math.max(yHi, v);
        }
      }
    }
    if (!(yHi > yLo)) {
      yLo -= 1;
      yHi += 1;
    }
    List<Double> yTicks = niceTicks(yLo, yHi, 6);
    yLo = Math.min(yLo, yTicks.get(0));
    yHi = Math.max(yHi, yTicks.get(yTicks.size() - 1));
    long span = Math.max(1, ChronoUnit.DAYS.between(first, last));
    Scale x = new Scale(0, (double) span, LEFT, WIDTH - RIGHT);
    Scale y = new Scale(yLo, yHi, HEIGHT - BOTTOM, TOP);
    Function<LocalDate, Double> at = d -> x.at((double) ChronoUnit.DAYS.between(first, d));
    String title = "VaR " + confidence + " and ES of " + node + " against daily P&L";
    StringBuilder svg = new StringBuilder(64 * days.size() + 4096);
    svg.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"history-plot\" role=\"img\""
                    + " width=\"100%%\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"xMidYMid meet\""
                    + " aria-labelledby=\"history-title history-desc\">%n",
                WIDTH,
                HEIGHT))
        .append("<title id=\"history-title\">")
        .append(escape(title))
        .append("</title>\n<desc id=\"history-desc\">")
        .append(
            escape(
                days.size()
                    + " business days from "
                    + first
                    + " to "
                    + last
                    + ", "
                    + series.exceptions()
                    + " exceptions in "
                    + series.observations()
                    + " observations"))
        .append("</desc>\n");
    axes(svg, x, y, first, last, yTicks);
    pnlBars(svg, days, at, y);
    line(svg, days, at, y, NodeSeries.Day::var, "var-line", "#b3261e", "");
    line(svg, days, at, y, NodeSeries.Day::es, "es-line", "#8a5a00", " stroke-dasharray=\"6 3\"");
    exceptions(svg, days, at, y);
    legend(svg);
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static Double neg(Double v) {
    return v == null ? null : -v;
  }

  private static void pnlBars(
      StringBuilder svg, List<NodeSeries.Day> days, Function<LocalDate, Double> at, Scale y) {
    svg.append(
        "<path class=\"pnl-bars\" stroke=\"#5b8fd6\" stroke-width=\"1.5\" fill=\"none\" d=\"");
    double zero = y.at(0);
    for (NodeSeries.Day d : days) {
      if (d.pnl() != null) {
        svg.append('M');
        fixed(svg, at.apply(d.date()));
        svg.append(' ');
        fixed(svg, zero);
        svg.append('V');
        fixed(svg, y.at(d.pnl()));
      }
    }
    svg.append("\"/>\n");
  }

  /** -value as a polyline; a day without the figure breaks the line. */
  private static void line(
      StringBuilder svg,
      List<NodeSeries.Day> days,
      Function<LocalDate, Double> at,
      Scale y,
      Function<NodeSeries.Day, Double> figure,
      String css,
      String colour,
      String extra) {
    svg.append("<path class=\"")
        .append(css)
        .append("\" fill=\"none\" stroke=\"")
        .append(colour)
        .append("\" stroke-width=\"1.5\"")
        .append(extra)
        .append(" d=\"");
    boolean drawing = false;
    for (NodeSeries.Day d : days) {
      Double v = figure.apply(d);
      if (v == null) {
        if (d.pnl() == null) {
          drawing = false; // a date of neither series: a gap
        }
        continue;
      }
      svg.append(drawing ? 'L' : 'M');
      fixed(svg, at.apply(d.date()));
      svg.append(' ');
      fixed(svg, y.at(-v));
      drawing = true;
    }
    svg.append("\"/>\n");
  }

  /**
   * A pixel coordinate with one decimal, as {@code %.1f} writes it but without a formatter: the
   * paths hold four numbers a day, and five years of four desks are some 20,000 of them.
   */
  static void fixed(StringBuilder out, double value) {
    long tenths = Math.round(value * 10);
    if (tenths < 0) {
      out.append('-');
      tenths = -tenths;
    }
    out.append(tenths / 10).append('.').append(tenths % 10);
  }

  private static void exceptions(
      StringBuilder svg, List<NodeSeries.Day> days, Function<LocalDate, Double> at, Scale y) {
    svg.append("<g class=\"exceptions\" fill=\"#b3261e\" stroke=\"#fff\">\n");
    for (NodeSeries.Day d : days) {
      if (d.exception()) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<circle class=\"exception\" data-date=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\">"
                    + "<title>%s</title></circle>%n",
                d.date(),
                at.apply(d.date()),
                y.at(d.pnl()),
                escape(
                    String.format(
                        Locale.ENGLISH,
                        "%s: P&L %,.2f beyond the VaR %,.2f of the day before",
                        d.date(),
                        d.pnl(),
                        d.varBefore()))));
      }
    }
    svg.append("</g>\n");
  }

  private static void axes(
      StringBuilder svg, Scale x, Scale y, LocalDate first, LocalDate last, List<Double> yTicks) {
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
    verticalTicks(svg, LEFT, y, yTicks);
    svg.append(
        String.format(
            Locale.ROOT,
            "<line class=\"zero\" x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#9aa6b5\"/>%n",
            LEFT,
            y.at(0),
            WIDTH - RIGHT,
            y.at(0)));
    for (LocalDate t : dateTicks(first, last)) {
      double px = x.at((double) ChronoUnit.DAYS.between(first, t));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/><text x=\"%.2f\" y=\"%.1f\""
                  + " text-anchor=\"middle\" stroke=\"none\">%s</text>%n",
              px,
              base,
              px,
              base + 5,
              px,
              base + 19,
              escape(t.format(MONTH))));
    }
    svg.append("</g>\n");
  }

  /** First days of months, every 1, 2, 3, 6 or 12 months so that at most 8 are drawn. */
  static List<LocalDate> dateTicks(LocalDate first, LocalDate last) {
    long months = ChronoUnit.MONTHS.between(first.withDayOfMonth(1), last.withDayOfMonth(1)) + 1;
    int step = 1;
    for (int s : new int[] {1, 2, 3, 6, 12, 24}) {
      step = s;
      if (months / s <= 8) {
        break;
      }
    }
    List<LocalDate> ticks = new ArrayList<>();
    LocalDate t = first.withDayOfMonth(1);
    if (t.isBefore(first)) {
      t = t.plusMonths(1);
    }
    while ((t.getMonthValue() - 1) % step != 0) { // January, then every step months
      t = t.plusMonths(1);
    }
    for (; !t.isAfter(last); t = t.plusMonths(step)) {
      ticks.add(t);
    }
    return ticks;
  }

  private static void legend(StringBuilder svg) {
    svg.append(
        "<g class=\"legend\" font-size=\"12\" fill=\"#3b4552\">"
            + "<line x1=\"90\" y1=\"12\" x2=\"110\" y2=\"12\" stroke=\"#5b8fd6\" stroke-width=\"3\"/>"
            + "<text x=\"114\" y=\"16\">daily P&amp;L</text>"
            + "<line x1=\"200\" y1=\"12\" x2=\"220\" y2=\"12\" stroke=\"#b3261e\" stroke-width=\"2\"/>"
            + "<text x=\"224\" y=\"16\">-VaR</text>"
            + "<line x1=\"280\" y1=\"12\" x2=\"300\" y2=\"12\" stroke=\"#8a5a00\" stroke-width=\"2\""
            + " stroke-dasharray=\"6 3\"/><text x=\"304\" y=\"16\">-ES</text>"
            + "<circle cx=\"360\" cy=\"12\" r=\"4\" fill=\"#b3261e\"/>"
            + "<text x=\"368\" y=\"16\">exception (loss beyond the VaR of the day before)</text></g>\n");
  }
}
