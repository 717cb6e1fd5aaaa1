package io.gantry.server.internal.demo;

import java.util.List;

/**
 * Values a demo position in USD at one day's closes, with the pricing of mcvar's file contract
 * (node-programs/README.md): spot, cash, zero-coupon bonds on a curve (linear in tenor, flat beyond
 * the ends), FX forwards, Black-Scholes options on equities and Garman-Kohlhagen options on FX
 * (Garman and Kohlhagen, "Foreign currency option values"), converted to USD at the day's FX
 * closes. Used only for the desks' hypothetical P&L series (desk_pnl), never for a VaR.
 */
final class DemoValuation {
  private final DemoMarketHistory.History history;

  DemoValuation(DemoMarketHistory.History history) {
    this.history = history;
  }

  /** The position's value in USD at the closes of history day {@code day}. */
  double valueUsd(DemoBook.Position p, int day) {
    return valueLocal(p, day) * usdPerUnit(history.levels()[day], p.currency());
  }

  /** The position's value in its own currency at the closes of history day {@code day}. */
  double valueLocal(DemoBook.Position p, int day) {
    double[] l = history.levels()[day];
    double value =
        switch (p.instrument()) {
          case "cash" -> p.quantity();
          case "spot" -> p.quantity() * level(l, p.factor());
          case "zcb" ->
              p.quantity()
                  * Math.exp(-curveRate(l, p.curve(), p.maturityYears()) * p.maturityYears());
          case "fx-forward" -> {
            double tau = p.maturityYears();
            double s = level(l, p.factor());
            yield p.quantity()
                * (s * Math.exp(-level(l, p.foreignRateFactor()) * tau)
                    - p.strike() * Math.exp(-level(l, p.rateFactor()) * tau));
          }
          case "call", "put" -> {
            double s = level(l, p.factor());
            double r = level(l, p.rateFactor());
            double q = p.foreignRateFactor() == null ? 0 : level(l, p.foreignRateFactor());
            double sigma = level(l, p.volFactor());
            yield p.quantity()
                * option(
                    p.instrument().equals("call"), s, p.strike(), p.maturityYears(), r, q, sigma);
          }
          default -> throw new IllegalArgumentException("instrument " + p.instrument());
        };
    return value;
  }

  private double level(double[] l, String factor) {
    return l[history.factorIndex(factor)];
  }

  /** USD per unit of {@code ccy} at the day's closes (EURUSD, GBPUSD direct; USDJPY inverted). */
  private double usdPerUnit(double[] l, String ccy) {
    return switch (ccy) {
      case "USD" -> 1;
      case "EUR" -> level(l, "FX-EURUSD");
      case "GBP" -> level(l, "FX-GBPUSD");
      case "JPY" -> 1 / level(l, "FX-USDJPY");
      default -> throw new IllegalArgumentException("no FX rate for " + ccy);
    };
  }

  /** The curve's zero rate at {@code tenor}: linear between its points, flat beyond the ends. */
  private double curveRate(double[] l, String curve, double tenor) {
    List<DemoFactor> factors = history.factors();
    double loT = Double.NEGATIVE_INFINITY;
    double hiT = Double.POSITIVE_INFINITY;
    double lo = Double.NaN;
    double hi = Double.NaN;
    double first = Double.NaN;
    double firstT = Double.POSITIVE_INFINITY;
    double last = Double.NaN;
    double lastT = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < factors.size(); i++) {
      DemoFactor f = factors.get(i);
      if (!f.isRate() || !f.curve().equals(curve)) {
        continue;
      }
      double t = f.tenorYears();
      if (t <= tenor && t > loT) {
        loT = t;
        lo = l[i];
      }
      if (t >= tenor && t < hiT) {
        hiT = t;
        hi = l[i];
      }
      if (t < firstT) {
        firstT = t;
        first = l[i];
      }
      if (t > lastT) {
        lastT = t;
        last = l[i];
      }
    }
    if (Double.isNaN(lo)) {
      return first;
    }
    if (Double.isNaN(hi)) {
      return last;
    }
    return hiT == loT ? lo : lo + (hi - lo) * (tenor - loT) / (hiT - loT);
  }

  /**
   * Black-Scholes with a continuous yield {@code q} (Garman-Kohlhagen when {@code q} is the foreign
   * rate): call {@code S e^{-q t} N(d1) - K e^{-r t} N(d2)}, put by parity of terms.
   */
  static double option(boolean call, double s, double k, double t, double r, double q, double v) {
    double sd = v * Math.sqrt(t);
    double d1 = (Math.log(s / k) + (r - q + 0.5 * v * v) * t) / sd;
    double d2 = d1 - sd;
    double fs = s * Math.exp(-q * t);
    double fk = k * Math.exp(-r * t);
    return call
        ? fs * normalCdf(d1) - fk * normalCdf(d2)
        : fk * normalCdf(-d2) - fs * normalCdf(-d1);
  }

  /**
   * The standard normal distribution function, Abramowitz and Stegun, "Handbook of Mathematical
   * Functions", 26.2.17 (absolute error below 7.5e-8: enough for a demo P&L series).
   */
  static double normalCdf(double x) {
    double t = 1 / (1 + 0.2316419 * Math.abs(x));
    double poly =
        t
            * (0.319381530
                + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    double tail = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI) * poly;
    return x >= 0 ? 1 - tail : tail;
  }
}
