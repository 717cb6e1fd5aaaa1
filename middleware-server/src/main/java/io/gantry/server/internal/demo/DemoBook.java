package io.gantry.server.internal.demo;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo bank's hierarchy and its book as of each of the last {@link #BOOK_DAYS} business days:
 * two legal entities, six desks in three currencies (USD, EUR, JPY; GBP through FX), each desk a
 * portfolio whose positions hang off its node. Deterministic for a given size.
 *
 * <p>A position is opened on one of those days and may be closed on a later one, so the book of an
 * earlier date differs from the last one; its time to maturity is counted from each date, and an
 * option's strike and a forward's rate are fixed from the levels of the day it was opened.
 */
final class DemoBook {
  /**
   * The business dates the book is stored for, the last of them {@link DemoMarketHistory#LAST_DAY}.
   */
  static final int BOOK_DAYS = 10;

  static final String TOP = "BANK";

  /** A node of the hierarchy. */
  record Node(String path, String kind, String description) {
    String parent() {
      int slash = path.lastIndexOf('/');
      return slash < 0 ? null : path.substring(0, slash);
    }

    String name() {
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }

  /** A desk: its book's id, its node, its currency and its share of the positions. */
  record Desk(String id, String node, String currency, double share, String description) {}

  static final List<Desk> DESKS =
      List.of(
          new Desk(
              "EQ-US", "BANK/GANTRY-US/EQUITIES/EQ-US", "USD", 0.30, "US equities and options"),
          new Desk("RATES-USD", "BANK/GANTRY-US/RATES/RATES-USD", "USD", 0.12, "USD bonds"),
          new Desk("FX-G10", "BANK/GANTRY-US/FX/FX-G10", "USD", 0.18, "FX spot, forwards, options"),
          new Desk(
              "EQ-EU", "BANK/GANTRY-EU/EQUITIES/EQ-EU", "EUR", 0.18, "EUR equities and options"),
          new Desk(
              "EQ-JP", "BANK/GANTRY-EU/EQUITIES/EQ-JP", "JPY", 0.10, "JPY equities and options"),
          new Desk("RATES-EUR", "BANK/GANTRY-EU/RATES/RATES-EUR", "EUR", 0.12, "EUR bonds"));

  /** Every node, parents before children. */
  static List<Node> nodes() {
    List<Node> nodes = new ArrayList<>();
    nodes.add(new Node(TOP, "bank", "Gantry Bank group (base currency USD)"));
    nodes.add(new Node("BANK/GANTRY-US", "legal-entity", "Gantry Securities Inc., New York"));
    nodes.add(new Node("BANK/GANTRY-EU", "legal-entity", "Gantry Bank AG, Frankfurt"));
    for (Desk d : DESKS) {
      String line = d.node().substring(0, d.node().lastIndexOf('/'));
      if (nodes.stream().noneMatch(n -> n.path().equals(line))) {
        nodes.add(new Node(line, "business-line", line.substring(line.lastIndexOf('/') + 1)));
      }
    }
    for (Desk d : DESKS) {
      nodes.add(new Node(d.node(), "desk", d.description() + " (" + d.currency() + ")"));
    }
    return nodes;
  }

  /** A position as the position table holds it for one business date. */
  record Position(
      LocalDate businessDate,
      String id,
      Desk desk,
      String instrument,
      String factor,
      String rateFactor,
      String foreignRateFactor,
      String volFactor,
      String curve,
      String currency,
      double quantity,
      Double strike,
      Double maturityYears,
      Double volatility) {}

  /** A trade: what it is, the book day it was opened and the first day it is no longer held. */
  private record Trade(
      String id,
      Desk desk,
      String instrument,
      String factor,
      String rateFactor,
      String foreignRateFactor,
      String volFactor,
      String curve,
      String currency,
      double quantity,
      Double strike,
      Double maturityAtOpen,
      int opened,
      int closed) {}

  private final DemoMarketHistory.History history;
  private final LocalDate[] bookDates;
  private final List<Trade> trades = new ArrayList<>();

  DemoBook(DemoMarketHistory.History history, int positions, long seed) {
    this.history = history;
    this.bookDates = new LocalDate[BOOK_DAYS];
    System.arraycopy(history.dates(), history.dates().length - BOOK_DAYS, bookDates, 0, BOOK_DAYS);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int p = 1; p <= positions; p++) {
      double u = rnd.nextDouble();
      Desk desk = DESKS.get(DESKS.size() - 1);
      for (Desk d : DESKS) {
        if (u < d.share()) {
          desk = d;
          break;
        }
        u -= d.share();
      }
      int opened = rnd.nextDouble() < 0.1 ? 1 + rnd.nextInt(BOOK_DAYS - 1) : 0;
      int closed =
          opened < BOOK_DAYS - 1 && rnd.nextDouble() < 0.05
              ? opened + 1 + rnd.nextInt(BOOK_DAYS - 1 - opened)
              : BOOK_DAYS;
      trades.add(trade(String.format("P%07d", p), desk, opened, closed, rnd));
    }
  }

  LocalDate[] bookDates() {
    return bookDates.clone();
  }

  /** The book held at the close of {@code bookDates()[day]}. */
  List<Position> book(int day) {
    LocalDate date = bookDates[day];
    List<Position> book = new ArrayList<>();
    for (Trade t : trades) {
      if (t.opened() > day || t.closed() <= day) {
        continue;
      }
      Double maturity = null;
      if (t.maturityAtOpen() != null) {
        long days = ChronoUnit.DAYS.between(bookDates[t.opened()], date);
        maturity = t.maturityAtOpen() - days / 365.0;
      }
      Double volatility =
          t.volFactor() == null ? null : history.level(date, t.volFactor()); // today's implied vol
      book.add(
          new Position(
              date,
              t.id(),
              t.desk(),
              t.instrument(),
              t.factor(),
              t.rateFactor(),
              t.foreignRateFactor(),
              t.volFactor(),
              t.curve(),
              t.currency(),
              t.quantity(),
              t.strike(),
              maturity,
              volatility));
    }
    addFunding(book, day);
    return book;
  }

  /**
   * Every desk but FX-G10 funds what it holds in a foreign currency in that currency: one cash
   * position per desk and currency, minus the value of its positions in it at the date's close (so
   * a desk's VaR is its market's risk, not the translation of its whole book into USD; the FX
   * desk's currency risk is its business).
   */
  private void addFunding(List<Position> book, int day) {
    int historyDay = history.dayOf(bookDates[day]);
    DemoValuation valuation = new DemoValuation(history);
    java.util.Map<String, Double> value = new java.util.TreeMap<>();
    for (Position p : book) {
      if (!p.currency().equals("USD") && !p.desk().id().equals("FX-G10")) {
        value.merge(
            p.desk().id() + " " + p.currency(), valuation.valueLocal(p, historyDay), Double::sum);
      }
    }
    for (java.util.Map.Entry<String, Double> e : value.entrySet()) {
      String[] deskAndCurrency = e.getKey().split(" ");
      Desk desk =
          DESKS.stream().filter(d -> d.id().equals(deskAndCurrency[0])).findFirst().orElseThrow();
      book.add(
          new Position(
              bookDates[day],
              "FUND-" + desk.id() + "-" + deskAndCurrency[1],
              desk,
              "cash",
              null,
              null,
              null,
              null,
              null,
              deskAndCurrency[1],
              -Math.round(e.getValue()),
              null,
              null,
              null));
    }
  }

  private Trade trade(String id, Desk desk, int opened, int closed, SplittableRandom rnd) {
    LocalDate open = bookDates[opened];
    double u = rnd.nextDouble();
    switch (desk.id()) {
      case "EQ-US", "EQ-EU", "EQ-JP" -> {
        String region = desk.id().substring(3);
        int names = region.equals("US") ? 8 : 6;
        if (u < 0.7) {
          String eq = String.format("EQ-%s-%02d", region, 1 + rnd.nextInt(names));
          double shares =
              region.equals("JP") ? 100 * (1 + rnd.nextInt(50)) : 10 + rnd.nextInt(4990);
          return new Trade(
              id,
              desk,
              "spot",
              eq,
              null,
              null,
              null,
              null,
              desk.currency(),
              signed(rnd, shares),
              null,
              null,
              opened,
              closed);
        }
        List<String> withVol =
            switch (region) {
              case "US" -> List.of("EQ-US-01", "EQ-US-02", "EQ-US-03");
              case "EU" -> List.of("EQ-EU-01", "EQ-EU-02");
              default -> List.of("EQ-JP-01");
            };
        String eq = withVol.get(rnd.nextInt(withVol.size()));
        double spot = history.level(open, eq);
        return new Trade(
            id,
            desk,
            rnd.nextBoolean() ? "call" : "put",
            eq,
            "IR-" + desk.currency() + "-1Y",
            null,
            "VOL-" + eq,
            null,
            desk.currency(),
            signed(rnd, 10 + rnd.nextInt(990)),
            round(spot * (0.8 + 0.4 * rnd.nextDouble()), 4),
            0.1 + 1.9 * rnd.nextDouble(),
            opened,
            closed);
      }
      case "RATES-USD", "RATES-EUR" -> {
        // zero-coupon bonds on the desk's curve, long and short alike (a rates desk runs curve
        // positions, not a one-way bet); a few JPY bonds on the EUR desk
        String ccy = desk.id().equals("RATES-EUR") && u < 0.15 ? "JPY" : desk.currency();
        double face =
            ccy.equals("JPY") ? 1e7 * (1 + rnd.nextInt(100)) : 1e5 * (1 + rnd.nextInt(100));
        return new Trade(
            id,
            desk,
            "zcb",
            null,
            null,
            null,
            null,
            ccy,
            ccy,
            signed(rnd, face),
            null,
            0.25 + 9.75 * rnd.nextDouble(),
            opened,
            closed);
      }
      default -> { // FX-G10
        String[] pairs = {"EURUSD", "USDJPY", "GBPUSD"};
        String pair = pairs[rnd.nextInt(pairs.length)];
        String fx = "FX-" + pair;
        String base = pair.substring(0, 3);
        String quote = pair.substring(3);
        double notional = 1e5 * (1 + rnd.nextInt(50));
        if (u < 0.25) {
          return new Trade(
              id,
              desk,
              "spot",
              fx,
              null,
              null,
              null,
              null,
              quote,
              signed(rnd, notional),
              null,
              null,
              opened,
              closed);
        }
        if (u < 0.35) { // a balance in a foreign currency
          String ccy = List.of("EUR", "JPY", "GBP").get(rnd.nextInt(3));
          double amount = ccy.equals("JPY") ? notional * 150 : notional;
          return new Trade(
              id,
              desk,
              "cash",
              null,
              null,
              null,
              null,
              null,
              ccy,
              signed(rnd, amount),
              null,
              null,
              opened,
              closed);
        }
        double spot = history.level(open, fx);
        double tau = 0.1 + 1.4 * rnd.nextDouble();
        String domestic = "IR-" + quote + "-1Y";
        String foreign = "IR-" + base + "-1Y";
        if (u < 0.7 || pair.equals("GBPUSD")) { // outright forward at the day's forward rate
          double forward =
              spot * Math.exp((history.level(open, domestic) - history.level(open, foreign)) * tau);
          return new Trade(
              id,
              desk,
              "fx-forward",
              fx,
              domestic,
              foreign,
              null,
              null,
              quote,
              signed(rnd, notional),
              round(forward, 6),
              tau,
              opened,
              closed);
        }
        return new Trade(
            id,
            desk,
            rnd.nextBoolean() ? "call" : "put",
            fx,
            domestic,
            foreign,
            "VOL-" + fx,
            null,
            quote,
            signed(rnd, notional),
            round(spot * (0.92 + 0.16 * rnd.nextDouble()), 6),
            tau,
            opened,
            closed);
      }
    }
  }

  private static double signed(SplittableRandom rnd, double quantity) {
    return rnd.nextDouble() < 0.3 ? -quantity : quantity;
  }

  private static double round(double value, int places) {
    double scale = Math.pow(10, places);
    return Math.round(value * scale) / scale;
  }
}
