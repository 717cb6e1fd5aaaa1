package io.gantry.web;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One node's VaR, ES and P&L by business date, as its time series shows them, with the exceptions
 * marked by var-backtest's rule (docs/risk-view.md, "What is compared with what"): the business
 * days are the dates of either series; the VaR of day d is compared with the P&L of the next
 * business day, and a loss beyond it, -P&L > VaR, is an exception. A day without a VaR before it or
 * without a P&L is no observation. (var-backtest's calendar is every node's dates together; in a
 * results database where every node has the same dates the two agree.)
 */
record NodeSeries(List<Day> days) {

  /**
   * @param var the VaR of the day, or null where there is none
   * @param varBefore the VaR of the business day before, the one this day's P&L is compared with
   * @param exception whether the day's loss exceeds {@code varBefore}
   */
  record Day(
      LocalDate date, Double var, Double es, Double pnl, Double varBefore, boolean exception) {}

  /** The series of {@code var} and {@code es} (by date) against {@code pnl} (by date). */
  static NodeSeries of(
      Map<LocalDate, Double> var, Map<LocalDate, Double> es, Map<LocalDate, Double> pnl) {
    SortedSet<LocalDate> dates = new TreeSet<>(var.keySet());
    dates.addAll(pnl.keySet());
    List<Day> days = new ArrayList<>(dates.size());
    Double before = null;
    for (LocalDate date : dates) {
      Double loss = pnl.get(date);
      boolean exception = before != null && loss != null && -loss > before;
      days.add(new Day(date, var.get(date), es.get(date), loss, before, exception));
      before = var.get(date);
    }
    return new NodeSeries(days);
  }

  long exceptions() {
    return days.stream().filter(Day::exception).count();
  }

  /** Days with both a VaR the day before and a P&L: the observations. */
  long observations() {
    return days.stream().filter(d -> d.varBefore() != null && d.pnl() != null).count();
  }
}
