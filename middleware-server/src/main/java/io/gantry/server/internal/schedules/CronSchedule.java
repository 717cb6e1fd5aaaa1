package io.gantry.server.internal.schedules;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.gantry.server.internal.service.InvalidArgumentException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * The times of a Unix cron expression (minute hour day-of-month month day-of-week) in a time zone,
 * read and stepped by cron-utils. Daylight-saving changes are the library's: a time that does not
 * exist on a day is skipped, one that exists twice runs once.
 */
final class CronSchedule {
  private static final CronParser UNIX =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  private final ExecutionTime times;
  private final ZoneId zone;

  private CronSchedule(ExecutionTime times, ZoneId zone) {
    this.times = times;
    this.zone = zone;
  }

  /**
   * @throws InvalidArgumentException naming {@code cron} or {@code timeZone} when either is wrong
   */
  static CronSchedule of(String cron, String timeZone) {
    if (cron == null || cron.isBlank() || cron.length() > 200) {
      throw new InvalidArgumentException(
          "cron",
          "a Unix cron expression is needed, e.g. '30 18 * * 1-5' (18:30 Monday to Friday)");
    }
    ZoneId zone = zone(timeZone);
    try {
      return new CronSchedule(ExecutionTime.forCron(UNIX.parse(cron.strip())), zone);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(
          "cron",
          "'"
              + cron.strip()
              + "' is not a Unix cron expression (minute hour day-of-month month day-of-week, e.g."
              + " '30 18 * * 1-5'): "
              + e.getMessage());
    }
  }

  static ZoneId zone(String timeZone) {
    try {
      return timeZone == null || timeZone.isBlank()
          ? ZoneId.systemDefault()
          : ZoneId.of(timeZone.strip());
    } catch (DateTimeException e) {
      throw new InvalidArgumentException(
          "timeZone", "'" + timeZone + "' is not a time zone id such as Europe/London or UTC");
    }
  }

  ZoneId zone() {
    return zone;
  }

  /** The first time strictly after {@code after}; empty when the expression has no more. */
  Optional<Instant> next(Instant after) {
    return times.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant);
  }

  /** The last time strictly before {@code before}; empty when there is none. */
  Optional<Instant> previous(Instant before) {
    return times.lastExecution(before.atZone(zone)).map(ZonedDateTime::toInstant);
  }

  /**
   * The times after {@code after} and at or before {@code atOrBefore}: how many (counted up to
   * {@link #COUNT_LIMIT}) and the latest; empty when none.
   */
  Optional<Due> due(Instant after, Instant atOrBefore) {
    Instant latest = null;
    int count = 0;
    for (Optional<Instant> t = next(after);
        t.isPresent() && !t.get().isAfter(atOrBefore);
        t = next(t.get())) {
      latest = t.get();
      if (++count == COUNT_LIMIT) { // a minutely schedule missed for months: find the end at once
        latest =
            times
                .lastExecution(atOrBefore.plusNanos(1).atZone(zone))
                .map(ZonedDateTime::toInstant)
                .orElse(latest);
        break;
      }
    }
    return latest == null ? Optional.empty() : Optional.of(new Due(latest, count));
  }

  /** How far {@link #due} counts before it jumps to the latest time. */
  static final int COUNT_LIMIT = 10_000;

  /** Times that have come: the latest, and how many (at most {@link #COUNT_LIMIT}). */
  record Due(Instant latest, int count) {}
}
