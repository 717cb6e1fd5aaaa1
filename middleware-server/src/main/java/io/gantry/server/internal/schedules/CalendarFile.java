package io.gantry.server.internal.schedules;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A holiday calendar file: one ISO date (2026-12-25) a line, optionally followed by words that say
 * what it is ({@code 2026-12-25 Christmas Day}); blank lines and lines starting with {@code #} are
 * left out.
 */
final class CalendarFile {
  private CalendarFile() {}

  /**
   * @param where the file's name, for messages
   * @throws IllegalArgumentException naming the line of a date that cannot be read
   */
  static Set<LocalDate> dates(String where, List<String> lines) {
    Set<LocalDate> dates = new TreeSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String first = line.split("\\s+", 2)[0];
      try {
        dates.add(LocalDate.parse(first));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            where
                + " line "
                + (i + 1)
                + ": '"
                + first
                + "' is not a date like 2026-12-25 (one date a line, # for comments)",
            e);
      }
      if (dates.size() > HolidayCalendars.MAX_DATES) {
        throw new IllegalArgumentException(
            where + " holds more than " + HolidayCalendars.MAX_DATES + " dates");
      }
    }
    return dates;
  }
}
