package io.gantry.server.internal.schedules;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;

/**
 * A schedule's times: those of its cron expression whose date, in the schedule's time zone, is not
 * a holiday of its calendar. As in Quartz (a trigger's next fire time is the next one its calendar
 * does not exclude) a holiday's times are passed over, not moved to the next working day.
 */
final class ScheduleTimes {
  /**
   * How many holiday dates in a row {@link #next} passes before it gives up: a calendar that holds
   * ten years of dates leaves the schedule without a next time rather than in a long loop.
   */
  static final int MAX_HOLIDAYS_IN_A_ROW = 3660;

  private final CronSchedule cron;
  private final Holidays holidays;

  ScheduleTimes(CronSchedule cron, Holidays holidays) {
    this.cron = cron;
    this.holidays = holidays;
  }

  /** The first working time strictly after {@code after}; empty when there is none. */
  Optional<Instant> next(Instant after) {
    Optional<Instant> t = cron.next(after);
    for (int days = 0; t.isPresent() && isHoliday(t.get()); days++) {
      if (days == MAX_HOLIDAYS_IN_A_ROW) {
        return Optional.empty();
      }
      // on to the next day: a minutely schedule does not step through a holiday minute by minute
      LocalDate holiday = date(t.get());
      Instant nextDay = holiday.plusDays(1).atStartOfDay(cron.zone()).toInstant();
      t = cron.next(nextDay.minusSeconds(1)); // cron's finest unit is a minute
    }
    return t;
  }

  /**
   * The working times after {@code after} and at or before {@code atOrBefore}: how many (up to
   * {@link CronSchedule#COUNT_LIMIT}) and the latest; empty when none.
   */
  Optional<CronSchedule.Due> due(Instant after, Instant atOrBefore) {
    Instant latest = null;
    int count = 0;
    for (Optional<Instant> t = next(after);
        t.isPresent() && !t.get().isAfter(atOrBefore);
        t = next(t.get())) {
      latest = t.get();
      if (++count == CronSchedule.COUNT_LIMIT) {
        latest = latestWorkingTime(after, atOrBefore).orElse(latest);
        break;
      }
    }
    return latest == null ? Optional.empty() : Optional.of(new CronSchedule.Due(latest, count));
  }

  /**
   * The latest time of the expression after {@code after} and at or before {@code atOrBefore} when
   * every such time fell on a holiday: the time a schedule records as skipped for its calendar.
   * Empty when none came, or when one of them was a working time.
   */
  Optional<Instant> holidayPassed(Instant after, Instant atOrBefore) {
    if (due(after, atOrBefore).isPresent()) {
      return Optional.empty();
    }
    return cron.due(after, atOrBefore).map(CronSchedule.Due::latest);
  }

  /** The calendar date of {@code time} in the schedule's zone. */
  LocalDate date(Instant time) {
    return time.atZone(cron.zone()).toLocalDate();
  }

  boolean isHoliday(Instant time) {
    return holidays.holds(date(time));
  }

  private Optional<Instant> latestWorkingTime(Instant after, Instant atOrBefore) {
    Optional<Instant> t = cron.previous(atOrBefore.plusNanos(1));
    for (int days = 0; t.isPresent() && t.get().isAfter(after) && isHoliday(t.get()); days++) {
      if (days == MAX_HOLIDAYS_IN_A_ROW) {
        return Optional.empty();
      }
      t = cron.previous(date(t.get()).atStartOfDay(cron.zone()).toInstant());
    }
    return t.filter(time -> time.isAfter(after));
  }
}
