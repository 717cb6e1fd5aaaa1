package io.gantry.server.internal.schedules;

import io.gantry.server.internal.service.InvalidArgumentException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scheduled time in a schedule's parameter values: each firing fills <code>${schedule.date}
 * </code> (2026-11-23, in the schedule's zone), <code>${schedule.time}</code> (18:30), <code>
 * ${schedule.datetime}</code> (2026-11-23T18:30+00:00) and <code>${schedule.name}</code> before the
 * values fill the job template; <code>$${</code> keeps a literal <code>${</code>.
 */
final class ScheduleVariables {
  private static final Pattern REFERENCE =
      Pattern.compile("\\$\\$\\{|\\$\\{schedule\\.([a-z]+)\\}");

  private ScheduleVariables() {}

  /**
   * @throws InvalidArgumentException for <code>${schedule.x}</code> with an unknown x
   */
  static Map<String, String> fill(
      Map<String, String> values, Instant time, ZoneId zone, String scheduleName) {
    ZonedDateTime at = time.atZone(zone).truncatedTo(ChronoUnit.MINUTES);
    Map<String, String> filled = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      Matcher m = REFERENCE.matcher(e.getValue());
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String replacement =
            m.group(1) == null ? "${" : variable(m.group(1), at, scheduleName, e.getKey());
        m.appendReplacement(out, Matcher.quoteReplacement(replacement));
      }
      m.appendTail(out);
      filled.put(e.getKey(), out.toString());
    }
    return filled;
  }

  private static String variable(String name, ZonedDateTime at, String scheduleName, String key) {
    return switch (name) {
      case "date" -> at.toLocalDate().toString();
      case "time" -> at.toLocalTime().format(DateTimeFormatter.ofPattern("HH:mm"));
      case "datetime" -> at.toOffsetDateTime().toString();
      case "name" -> scheduleName;
      default ->
          throw new InvalidArgumentException(
              "parameter",
              key
                  + " refers to ${schedule."
                  + name
                  + "}; a schedule offers ${schedule.date}, ${schedule.time}, ${schedule.datetime}"
                  + " and ${schedule.name}");
    };
  }
}
