package io.gantry.server.internal.demo;

/**
 * A risk factor of the demo market as the factors input describes it (node-programs/README.md): its
 * id, kind, currency, FX quote (BASEQUOTE, level = QUOTE per BASE), return type, curve and tenor,
 * plus what the history generator needs (annual volatility of its moves, the index of the factor
 * whose moves drive it, for an implied volatility).
 */
record DemoFactor(
    String id,
    String kind,
    String currency,
    String quote,
    String returnType,
    String curve,
    double tenorYears,
    double annualVol,
    String description) {

  boolean isRate() {
    return kind.equals("rate");
  }

  boolean isVol() {
    return kind.equals("vol");
  }

  boolean isFx() {
    return kind.equals("fx");
  }

  /** For an fx factor: the pair's base currency (the first three letters of the quote). */
  String fxBase() {
    return quote.substring(0, 3);
  }
}
