package io.gantry.server.internal.demo;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The demo market's factors and six years of daily closes (business days, Monday to Friday),
 * generated forward from fixed starting levels; deterministic.
 *
 * <p>The process (docs/sample-var-job.md, "How the history is made"): every factor's daily move is
 * {@code sigma_t * z_t}, with the variance following GARCH(1,1) (Bollerslev, "Generalized
 * autoregressive conditional heteroskedasticity"): {@code sigma_t^2 = omega + ALPHA * move_{t-1}^2
 * + BETA * sigma_{t-1}^2}, {@code omega = (1 - ALPHA - BETA) * s^2 * m_t}, where {@code s} is the
 * factor's long-run daily volatility and {@code m_t} is {@link #CRISIS_VARIANCE} inside the crisis
 * window, else 1. The shocks {@code z} are Student-t with {@link #DOF} degrees of freedom scaled to
 * unit variance (fat tails), built from a world shock, a shock per curve and a factor's own shock
 * so that equities move together and a curve's tenors move together; in the crisis the world
 * loading rises (correlations go to one). Equities and FX move by log returns; rates by absolute
 * changes around a path of central-bank policy (EUR and JPY negative at the start), so they can be
 * and are negative; an implied volatility mean-reverts in log around a level that doubles in the
 * crisis and rises when its underlying falls.
 */
final class DemoMarketHistory {
  static final LocalDate LAST_DAY = LocalDate.of(2026, 11, 20);

  /** Six years of business days. */
  static final int DAYS = 6 * 261;

  /** GARCH(1,1) reaction and persistence: typical fitted values for daily index returns. */
  static final double ALPHA = 0.08;

  static final double BETA = 0.90;

  /** Degrees of freedom of the Student-t shocks (kurtosis 9 for a unit-variance t5 shock). */
  static final int DOF = 5;

  /** The crisis window (inclusive): long-run variance x9 (volatility x3), correlations up. */
  static final LocalDate CRISIS_FROM = LocalDate.of(2023, 3, 6);

  static final LocalDate CRISIS_TO = LocalDate.of(2023, 5, 31);

  static final double CRISIS_VARIANCE = 9.0;

  private static final long SEED = 20261122L;

  /** Daily persistence of a rate's deviation from its policy path (mean reversion). */
  private static final double RATE_PERSISTENCE = 0.985;

  /** The factors, in a fixed order (the generator's; files are ordered by id when staged). */
  static List<DemoFactor> factors() {
    List<DemoFactor> f = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(SEED);
    String[][] regions = {{"US", "USD", "8"}, {"EU", "EUR", "6"}, {"JP", "JPY", "6"}};
    for (String[] r : regions) {
      for (int i = 1; i <= Integer.parseInt(r[2]); i++) {
        String id = String.format("EQ-%s-%02d", r[0], i);
        f.add(
            new DemoFactor(
                id,
                "equity",
                r[1],
                null,
                "log",
                null,
                0,
                0.18 + 0.22 * rnd.nextDouble(),
                r[0] + " equity " + i + " (price in " + r[1] + ")"));
      }
    }
    f.add(fx("EURUSD", 0.075));
    f.add(fx("USDJPY", 0.095));
    f.add(fx("GBPUSD", 0.085));
    String[] tenorNames = {"3M", "1Y", "2Y", "5Y", "10Y"};
    double[] tenors = {0.25, 1, 2, 5, 10};
    for (String ccy : List.of("USD", "EUR", "JPY", "GBP")) {
      for (int t = 0; t < tenors.length; t++) {
        f.add(
            new DemoFactor(
                "IR-" + ccy + "-" + tenorNames[t],
                "rate",
                ccy,
                null,
                "absolute",
                ccy,
                tenors[t],
                bpVolatility(ccy) * (1.1 - 0.03 * t),
                ccy + " zero rate (continuously compounded), " + tenorNames[t]));
      }
    }
    for (String underlying :
        List.of("EQ-US-01", "EQ-US-02", "EQ-US-03", "EQ-EU-01", "EQ-EU-02", "EQ-JP-01")) {
      f.add(vol(underlying, 0.80));
    }
    f.add(vol("FX-EURUSD", 0.60));
    f.add(vol("FX-USDJPY", 0.60));
    return List.copyOf(f);
  }

  private static DemoFactor fx(String pair, double annualVol) {
    return new DemoFactor(
        "FX-" + pair,
        "fx",
        pair.substring(3),
        pair,
        "log",
        null,
        0,
        annualVol,
        pair + ": " + pair.substring(3) + " per " + pair.substring(0, 3));
  }

  private static DemoFactor vol(String underlying, double volOfVol) {
    return new DemoFactor(
        "VOL-" + underlying,
        "vol",
        null,
        null,
        "log",
        null,
        0,
        volOfVol,
        "implied volatility of " + underlying + " (0.2 = 20%)");
  }

  /** Annual volatility of a currency's rates in absolute terms (0.008 = 80 bp a year). */
  private static double bpVolatility(String ccy) {
    return switch (ccy) {
      case "USD" -> 0.0095;
      case "EUR" -> 0.0070;
      case "JPY" -> 0.0025;
      default -> 0.0095;
    };
  }

  /** The closes: {@code levels[day][factor]} for {@code dates[day]}, oldest first. */
  static final class History {
    private final List<DemoFactor> factors;
    private final LocalDate[] dates;
    private final double[][] levels;
    private final Map<String, Integer> index = new HashMap<>();

    History(List<DemoFactor> factors, LocalDate[] dates, double[][] levels) {
      this.factors = factors;
      this.dates = dates;
      this.levels = levels;
      for (int i = 0; i < factors.size(); i++) {
        index.put(factors.get(i).id(), i);
      }
    }

    List<DemoFactor> factors() {
      return factors;
    }

    /** The business days, oldest first (shared, not copied: read only). */
    LocalDate[] dates() {
      return dates;
    }

    /** {@code levels()[day][factor]} (shared, not copied: read only). */
    double[][] levels() {
      return levels;
    }

    int dayOf(LocalDate date) {
      int i = java.util.Arrays.binarySearch(dates, date);
      if (i < 0) {
        throw new IllegalArgumentException("not a business day of the history: " + date);
      }
      return i;
    }

    int factorIndex(String id) {
      Integer i = index.get(id);
      if (i == null) {
        throw new IllegalArgumentException("no factor " + id);
      }
      return i;
    }

    double level(LocalDate date, String factor) {
      return levels[dayOf(date)][factorIndex(factor)];
    }
  }

  static History generate() {
    List<DemoFactor> factors = factors();
    LocalDate[] dates = businessDays();
    int n = factors.size();
    double[][] levels = new double[DAYS][n];
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < n; i++) {
      index.put(factors.get(i).id(), i);
    }
    double[] dailyVol = new double[n];
    double[] variance = new double[n];
    double[] lastMove = new double[n];
    double[] deviation = new double[n]; // a rate's distance from its policy path
    double[] worldLoading = new double[n];
    for (int i = 0; i < n; i++) {
      DemoFactor f = factors.get(i);
      dailyVol[i] = f.annualVol() / Math.sqrt(252);
      variance[i] = dailyVol[i] * dailyVol[i];
      worldLoading[i] =
          switch (f.kind()) {
            case "equity" -> 0.55;
            case "fx" -> f.id().equals("FX-USDJPY") ? 0.25 : 0.2;
            case "rate" -> 0.25;
            default -> 0.0;
          };
    }
    double[] level = startLevels(factors, rnd);
    for (int d = 0; d < DAYS; d++) {
      boolean crisis = !dates[d].isBefore(CRISIS_FROM) && !dates[d].isAfter(CRISIS_TO);
      if (d > 0) {
        double world = studentT(rnd);
        Map<String, Double> curveShock = new HashMap<>();
        double[] shock = new double[n];
        for (int i = 0; i < n; i++) {
          DemoFactor f = factors.get(i);
          if (f.isVol()) {
            continue;
          }
          double w = Math.min(0.9, worldLoading[i] + (crisis ? 0.3 : 0));
          double z;
          if (f.isRate()) {
            double c = curveShock.computeIfAbsent(f.curve(), k -> studentT(rnd));
            z = w * world + 0.9 * c + Math.sqrt(Math.max(0, 1 - w * w - 0.81)) * studentT(rnd);
          } else {
            z = w * world + Math.sqrt(1 - w * w) * studentT(rnd);
          }
          double omega =
              (1 - ALPHA - BETA) * dailyVol[i] * dailyVol[i] * (crisis ? CRISIS_VARIANCE : 1);
          variance[i] = omega + ALPHA * lastMove[i] * lastMove[i] + BETA * variance[i];
          double move = Math.sqrt(variance[i]) * z;
          lastMove[i] = move;
          shock[i] = z;
          if (f.isRate()) {
            deviation[i] = RATE_PERSISTENCE * deviation[i] + move;
            level[i] = policyPath(f.curve(), dates[d]) + termPremium(f) + deviation[i];
          } else {
            level[i] *= Math.exp(move);
          }
        }
        for (int i = 0; i < n; i++) {
          DemoFactor f = factors.get(i);
          if (!f.isVol()) {
            continue;
          }
          // log implied vol: mean reversion to its (crisis-raised) long-run level, and moves
          // against its underlying's shock (the leverage effect), with GARCH-scaled noise
          int u = index.get(f.id().substring("VOL-".length()));
          double longRun = Math.log(longRunVol(f) * (crisis ? 2.0 : 1.0));
          double own = studentT(rnd);
          double z = -0.7 * shock[u] + Math.sqrt(1 - 0.49) * own;
          double omega =
              (1 - ALPHA - BETA) * dailyVol[i] * dailyVol[i] * (crisis ? CRISIS_VARIANCE : 1);
          variance[i] = omega + ALPHA * lastMove[i] * lastMove[i] + BETA * variance[i];
          double move = 0.03 * (longRun - Math.log(level[i])) + Math.sqrt(variance[i]) * z;
          lastMove[i] = move;
          level[i] *= Math.exp(move);
        }
      }
      System.arraycopy(level, 0, levels[d], 0, n);
    }
    return new History(factors, dates, levels);
  }

  private static double[] startLevels(List<DemoFactor> factors, SplittableRandom rnd) {
    double[] level = new double[factors.size()];
    for (int i = 0; i < level.length; i++) {
      DemoFactor f = factors.get(i);
      level[i] =
          switch (f.kind()) {
            case "equity" ->
                switch (f.currency()) {
                  case "JPY" -> 800 + 7000 * rnd.nextDouble();
                  case "EUR" -> 15 + 135 * rnd.nextDouble();
                  default -> 25 + 275 * rnd.nextDouble();
                };
            case "fx" ->
                switch (f.quote()) {
                  case "EURUSD" -> 1.21;
                  case "USDJPY" -> 104.0;
                  default -> 1.34;
                };
            case "rate" -> policyPath(f.curve(), LAST_DAY.minusYears(7)) + termPremium(f);
            default -> longRunVol(f);
          };
    }
    return level;
  }

  private static double longRunVol(DemoFactor vol) {
    return vol.id().startsWith("VOL-FX") ? 0.085 : 0.24;
  }

  /**
   * A stylised central-bank policy rate per currency: flat, a hiking cycle, then cuts (EUR and JPY
   * start below zero), linear between the turning points.
   */
  static double policyPath(String ccy, LocalDate day) {
    Object[][] points =
        switch (ccy) {
          case "EUR" ->
              new Object[][] {
                {"2020-01-01", -0.0055},
                {"2022-07-20", -0.0050},
                {"2023-09-20", 0.0375},
                {"2024-06-01", 0.0375},
                {"2025-06-30", 0.0200}
              };
          case "JPY" ->
              new Object[][] {
                {"2020-01-01", -0.0010}, {"2024-03-01", -0.0010}, {"2025-01-31", 0.0050}
              };
          case "GBP" ->
              new Object[][] {
                {"2020-01-01", 0.0010},
                {"2021-12-01", 0.0010},
                {"2023-08-01", 0.0525},
                {"2024-08-01", 0.0525},
                {"2025-08-01", 0.0400}
              };
          default ->
              new Object[][] {
                {"2020-01-01", 0.0009},
                {"2022-03-01", 0.0009},
                {"2023-08-01", 0.0530},
                {"2024-09-01", 0.0530},
                {"2025-12-31", 0.0375}
              };
        };
    long t = day.toEpochDay();
    for (int i = points.length - 1; i >= 0; i--) {
      long ti = LocalDate.parse((String) points[i][0]).toEpochDay();
      if (t >= ti) {
        if (i == points.length - 1) {
          return (double) points[i][1];
        }
        long tj = LocalDate.parse((String) points[i + 1][0]).toEpochDay();
        double a = (double) points[i][1];
        double b = (double) points[i + 1][1];
        return a + (b - a) * (t - ti) / (double) (tj - ti);
      }
    }
    return (double) points[0][1];
  }

  /** An upward-sloping curve: the tenor's premium over the policy rate. */
  private static double termPremium(DemoFactor rate) {
    return 0.0035 * Math.log1p(rate.tenorYears()) / Math.log(11);
  }

  /** {@link #DAYS} business days (Monday to Friday) ending {@link #LAST_DAY}, oldest first. */
  private static LocalDate[] businessDays() {
    LocalDate[] dates = new LocalDate[DAYS];
    LocalDate d = LAST_DAY;
    for (int i = DAYS - 1; i >= 0; i--) {
      dates[i] = d;
      d = previousBusinessDay(d);
    }
    return dates;
  }

  static LocalDate previousBusinessDay(LocalDate day) {
    LocalDate d = day.minusDays(1);
    while (d.getDayOfWeek() == DayOfWeek.SATURDAY || d.getDayOfWeek() == DayOfWeek.SUNDAY) {
      d = d.minusDays(1);
    }
    return d;
  }

  /** A Student-t draw with {@link #DOF} degrees of freedom scaled to unit variance. */
  private static double studentT(SplittableRandom rnd) {
    double chi2 = 0;
    for (int k = 0; k < DOF; k++) {
      double g = gaussian(rnd);
      chi2 += g * g;
    }
    double t = gaussian(rnd) / Math.sqrt(chi2 / DOF);
    return t * Math.sqrt((DOF - 2.0) / DOF);
  }

  static double gaussian(SplittableRandom rnd) {
    // Box-Muller; SplittableRandom has no nextGaussian on Java 17.
    double u1 = 1.0 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  private DemoMarketHistory() {}
}
