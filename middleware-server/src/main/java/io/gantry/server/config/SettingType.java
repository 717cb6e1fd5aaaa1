package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a setting's text is read and checked. Every problem is a {@link ConfigException} naming the
 * setting and what is wrong with the value.
 *
 * @param <T> what the text is read as
 * @param syntax what a value looks like, for {@code gantry-server settings} (e.g. {@code 0..65535})
 * @param reader reads one value
 * @param absent the value of a setting that is neither set nor has a default (null, or an empty
 *     list)
 */
public record SettingType<T>(String syntax, Reader<T> reader, T absent) {

  SettingType(String syntax, Reader<T> reader) {
    this(syntax, reader, null);
  }

  /** Reads the value of {@code key}. */
  @FunctionalInterface
  public interface Reader<T> {
    T read(String key, String value);
  }

  /** Reads {@code value} of setting {@code key}. */
  public T read(String key, String value) {
    return reader.read(key, value);
  }

  /** Any text but an empty one. */
  public static SettingType<String> text() {
    return new SettingType<>(
        "text",
        (key, value) -> {
          if (value.isBlank()) {
            throw new ConfigException(key, "is empty");
          }
          return value.strip();
        });
  }

  /** Any text, kept as written (an empty database user name is one). */
  public static SettingType<String> anyText() {
    return new SettingType<>("text", (key, value) -> value);
  }

  /** A whole number within {@code min..max}. */
  public static SettingType<Integer> integer(int min, int max) {
    return new SettingType<>(
        min + ".." + max,
        (key, value) -> {
          int n;
          try {
            n = Integer.parseInt(value.strip());
          } catch (NumberFormatException e) {
            throw new ConfigException(key, "'" + value + "' is not a whole number");
          }
          if (n < min || n > max) {
            throw new ConfigException(key, n + " is outside " + min + ".." + max);
          }
          return n;
        });
  }

  /** true, yes, on; false, no, off. */
  public static SettingType<Boolean> bool() {
    return new SettingType<>(
        "true|false",
        (key, value) ->
            switch (value.strip().toLowerCase(Locale.ROOT)) {
              case "true", "yes", "on" -> true;
              case "false", "no", "off" -> false;
              default -> throw new ConfigException(key, "'" + value + "' is not true or false");
            });
  }

  /** A positive duration: ISO-8601 ({@code PT2H}) or a plain number of seconds. */
  public static SettingType<Duration> duration() {
    return duration(false);
  }

  /** A duration as {@link #duration()}, or zero ({@code PT0S}, {@code 0}). */
  public static SettingType<Duration> durationOrZero() {
    return duration(true);
  }

  private static SettingType<Duration> duration(boolean zeroAllowed) {
    return new SettingType<>(
        "duration",
        (key, value) -> {
          try {
            String v = value.strip();
            Duration d =
                v.matches("\\d+") ? Duration.ofSeconds(Long.parseLong(v)) : Duration.parse(v);
            if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
              throw new ConfigException(
                  key, zeroAllowed ? "must not be negative" : "must be positive");
            }
            return d;
          } catch (DateTimeParseException | NumberFormatException e) {
            throw new ConfigException(
                key, "'" + value + "' is not a duration (seconds, or ISO-8601 like PT2H)");
          }
        });
  }

  private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*([kKmMgGtT]?)(i?[bB])?");

  /**
   * A number of bytes, more than 0: plain, or with a binary suffix ({@code 512M}, {@code 16G},
   * {@code 2TiB}).
   */
  public static SettingType<Long> bytes() {
    return bytes(false);
  }

  /** A number of bytes as {@link #bytes()}, where 0 is allowed (and means "off"). */
  public static SettingType<Long> bytesOrZero() {
    return bytes(true);
  }

  private static SettingType<Long> bytes(boolean zeroAllowed) {
    return new SettingType<>(
        "bytes",
        (key, value) -> {
          Matcher m = BYTES.matcher(value.strip());
          if (!m.matches()) {
            throw new ConfigException(
                key, "'" + value + "' is not a number of bytes (e.g. 1048576, 512M, 16G)");
          }
          int shift =
              switch (m.group(2).toUpperCase(Locale.ROOT)) {
                case "K" -> 10;
                case "M" -> 20;
                case "G" -> 30;
                case "T" -> 40;
                default -> 0;
              };
          try {
            long n = Long.parseLong(m.group(1));
            if (n > (Long.MAX_VALUE >> shift)) {
              throw new NumberFormatException();
            }
            if (n == 0 && !zeroAllowed) {
              throw new ConfigException(key, "must be more than 0");
            }
            return n << shift;
          } catch (NumberFormatException e) {
            throw new ConfigException(key, "'" + value + "' is too large");
          }
        });
  }

  /** A file or directory, made absolute against the working directory. */
  public static SettingType<Path> path() {
    return new SettingType<>(
        "path", (key, value) -> Path.of(text().read(key, value)).toAbsolutePath().normalize());
  }

  /** Words separated by spaces or commas; an empty value is an empty list. */
  public static SettingType<List<String>> words() {
    return new SettingType<>(
        "list",
        (key, value) -> {
          String v = value.strip();
          return v.isEmpty() ? List.of() : Arrays.asList(v.split("[\\s,]+"));
        },
        List.of());
  }

  /**
   * Words separated by white space only (commas are part of a word, as in a program's arguments).
   */
  public static SettingType<List<String>> arguments() {
    return new SettingType<>(
        "arguments",
        (key, value) -> {
          String v = value.strip();
          return v.isEmpty() ? List.of() : Arrays.asList(v.split("\\s+"));
        },
        List.of());
  }

  /** A word matching {@code regex}; {@code what} names it in the error ("a plain Slurm name"). */
  public static SettingType<String> word(String regex, String what) {
    return new SettingType<>(
        what,
        (key, value) -> {
          if (!value.strip().matches(regex)) {
            throw new ConfigException(key, "'" + value + "' is not " + what);
          }
          return value.strip();
        });
  }
}
