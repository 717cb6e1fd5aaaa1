package io.gantry.server.internal.schedules;

import java.time.LocalDate;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The dates of one holiday calendar as last read: a schedule naming it runs on none of them (as
 * Quartz's HolidayCalendar excludes whole days, and a Control-M or AutoSys exclusion calendar drops
 * the days it lists). A date is the schedule's own calendar date, in its time zone.
 *
 * @param name the calendar's name ({@code calendar.NAME.*})
 */
record Holidays(String name, SortedSet<LocalDate> dates) {
  /** No calendar: every date is a working date. */
  static final Holidays NONE = new Holidays("", new TreeSet<>());

  Holidays {
    dates = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(dates));
  }

  static Holidays of(String name, Set<LocalDate> dates) {
    return new Holidays(name, new TreeSet<>(dates));
  }

  boolean holds(LocalDate date) {
    return dates.contains(date);
  }
}
