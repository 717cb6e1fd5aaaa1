package io.gantry.web;

import java.io.StringWriter;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * How long the dashboard takes to draw five years of history for four desks (issue 27's figure,
 * goal under one second): for each desk its series (VaR, ES, P&L, exceptions), the SVG, the daily
 * table and its CSV, as the node page builds them once the server's figures are in. Beside it,
 * measured in the same run: drawing the results page's P&L histogram (200 bins), and formatting the
 * same numbers with {@code String.format} alone, the floor of any text output. Prints "name: value"
 * lines (webapp-jsp/bench/run). Synthetic data: a normal P&L (fixed seed) and a VaR of twice its
 * standard deviation, so that some days are exceptions.
 */
public final class DashboardRenderBenchmark {
  private static final int DESKS = 4;
  private static final int YEARS = 5;
  private static final int RUNS = Integer.getInteger("bench.runs", 20);

  private DashboardRenderBenchmark() {}

  private record Desk(
      Map<LocalDate, Double> var, Map<LocalDate, Double> es, Map<LocalDate, Double> pnl) {}

  public static void main(String[] args) throws Exception {
    List<Desk> desks = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(27);
    LocalDate last = LocalDate.of(2026, 11, 20);
    for (int d = 0; d < DESKS; d++) {
      Desk series = new Desk(new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
      double scale = 1_000_000 * (d + 1);
      for (LocalDate day = last.minusYears(YEARS); !day.isAfter(last); day = day.plusDays(1)) {
        if (day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY) {
          continue;
        }
        series.var().put(day, 2 * scale);
        series.es().put(day, 2.4 * scale);
        series.pnl().put(day, scale * gaussian(random));
      }
      desks.add(series);
    }
    long[] bytes = new long[1];
    int[] days = new int[1];
    Runnable render =
        () -> {
          bytes[0] = 0;
          days[0] = 0;
          for (int d = 0; d < DESKS; d++) {
            Desk s = desks.get(d);
            NodeSeries series = NodeSeries.of(s.var(), s.es(), s.pnl());
            String svg = VarHistorySvg.render("BANK/DESK-" + d, "99%", series);
            RiskTable table = RiskTables.history("BANK/DESK-" + d, series);
            StringWriter csv = new StringWriter();
            try {
              RiskCsv.write(csv, table);
            } catch (java.io.IOException e) {
              throw new IllegalStateException(e);
            }
            bytes[0] += svg.length() + csv.getBuffer().length();
            days[0] += series.days().size();
          }
        };
    List<VarResults.Bin> bins = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      bins.add(new VarResults.Bin(-100 + i, -99 + i, 1000 + i));
    }
    Runnable histogram = () -> PnlHistogramSvg.render(bins, List.of());
    Runnable format =
        () -> {
          StringBuilder out = new StringBuilder();
          for (Desk s : desks) {
            for (Map<LocalDate, Double> m : List.of(s.var(), s.es(), s.pnl())) {
              m.forEach((k, v) -> out.append(k).append(String.format(Locale.ENGLISH, "%,.2f", v)));
            }
          }
        };
    long cold = time(render);
    System.out.println("dashboard.history_5y_4desks_cold_ms: " + millis(cold));
    System.out.println("dashboard.history_5y_4desks_ms_median: " + millis(median(render)));
    System.out.println("dashboard.history_5y_4desks_days: " + days[0]);
    System.out.println("dashboard.history_5y_4desks_output_bytes: " + bytes[0]);
    System.out.println("baseline.format_same_numbers_ms_median: " + millis(median(format)));
    System.out.println("baseline.pnl_histogram_200_bins_ms_median: " + millis(median(histogram)));
    System.out.println("goal.history_5y_4desks_ms: 1000");
  }

  private static double gaussian(SplittableRandom random) {
    // Box-Muller: two uniforms to one standard normal
    return Math.sqrt(-2 * Math.log(1 - random.nextDouble()))
        * Math.cos(2 * Math.PI * random.nextDouble());
  }

  private static long time(Runnable r) {
    long start = System.nanoTime();
    r.run();
    return System.nanoTime() - start;
  }

  private static long median(Runnable r) {
    long[] t = new long[RUNS];
    for (int i = 0; i < RUNS; i++) {
      t[i] = time(r);
    }
    Arrays.sort(t);
    return t[RUNS / 2];
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
  }
}
