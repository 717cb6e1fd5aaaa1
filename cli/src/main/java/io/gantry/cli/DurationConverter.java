package io.gantry.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as people type them: 90 (seconds), 90s, 15m, 2h, 1d, or ISO-8601 (PT1H30M). */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(s|m|h|d)?");

  @Override
  public Duration convert(String value) {
    Matcher m = SIMPLE.matcher(value.strip().toLowerCase(java.util.Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      return switch (unit) {
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofSeconds(n);
      };
    }
    try {
      return Duration.parse(value.strip().toUpperCase(java.util.Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration; write e.g. 90s, 15m, 2h or PT1H30M");
    }
  }
}
