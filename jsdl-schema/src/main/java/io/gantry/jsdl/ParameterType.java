package io.gantry.jsdl;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.Month;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type of a job template parameter ({@code gx:Parameter/@type}): what its value must be. A
 * value is checked and written in one canonical form before it is substituted or bound, so {@code
 * 007} becomes {@code 7} and {@code TRUE} becomes {@code true}.
 */
public enum ParameterType {
  STRING("any text"),
  DATE("an ISO date such as 2026-11-20"),
  INTEGER("a whole number such as 42"),
  DECIMAL("a decimal number such as 0.99"),
  BOOLEAN("true or false");

  /** What an ISO date looks like: YYYY-MM-DD, the numbers not yet checked. */
  private static final Pattern ISO_DATE_FORM = Pattern.compile("([0-9]{4})-([0-9]{2})-([0-9]{2})");

  /** The longest value accepted: values are names, dates and numbers, not documents. */
  public static final int MAX_LENGTH = 1000;

  private final String expected;

  ParameterType(String expected) {
    this.expected = expected;
  }

  /** The type named by {@code gx:Parameter/@type} (string when absent); null when unknown. */
  public static ParameterType named(String name) {
    if (name == null || name.isBlank()) {
      return STRING;
    }
    for (ParameterType t : values()) {
      if (t.xmlName().equals(name.strip())) {
        return t;
      }
    }
    return null;
  }

  /** The name as the schema spells it: {@code string}, {@code date}, ... */
  public String xmlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What a value of this type looks like, for messages. */
  public String expected() {
    return expected;
  }

  /**
   * The value in canonical form.
   *
   * @throws IllegalArgumentException saying what is wrong with the value
   */
  public String canonical(String value) {
    if (value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "is " + value.length() + " characters long; at most " + MAX_LENGTH + " are accepted");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f || c == 0xfffe || c == 0xffff) {
        throw new IllegalArgumentException("contains the control character U+" + hex(c));
      }
    }
    String v = value.strip();
    try {
      return switch (this) {
        case STRING -> value;
        case DATE -> date(v);
        case INTEGER -> {
          if (!v.matches("[+-]?[0-9]{1,18}")) {
            throw new IllegalArgumentException(v);
          }
          yield Long.toString(Long.parseLong(v));
        }
        case DECIMAL -> {
          if (!v.matches("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)") || v.length() > 40) {
            throw new IllegalArgumentException(v);
          }
          yield new BigDecimal(v).toPlainString();
        }
        case BOOLEAN -> {
          String b = v.toLowerCase(Locale.ROOT);
          if (!b.equals("true") && !b.equals("false")) {
            throw new IllegalArgumentException(v);
          }
          yield b;
        }
      };
    } catch (DayNotInMonth e) {
      throw e;
    } catch (DateTimeParseException | IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + abbreviate(v) + "' is not " + expected, e);
    }
  }

  /**
   * An ISO date. A value written right but naming no day ({@code 2026-11-31}, {@code 2026-02-29})
   * is told as such: the format is not the mistake.
   */
  private static String date(String v) {
    Matcher written = ISO_DATE_FORM.matcher(v);
    if (written.matches()) {
      int year = Integer.parseInt(written.group(1));
      int month = Integer.parseInt(written.group(2));
      int day = Integer.parseInt(written.group(3));
      if (month < 1 || month > 12) {
        throw new DayNotInMonth("'" + v + "' is not a day: there is no month " + month);
      }
      YearMonth yearMonth = YearMonth.of(year, month);
      if (day < 1 || day > yearMonth.lengthOfMonth()) {
        throw new DayNotInMonth(
            "'"
                + v
                + "' is not a day: "
                + Month.of(month).getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                + " "
                + year
                + " has "
                + yearMonth.lengthOfMonth()
                + " days");
      }
    }
    return LocalDate.parse(v).toString();
  }

  private static String hex(char c) {
    return String.format(Locale.ROOT, "%04X", (int) c);
  }

  /** A date written in the right form that names no day; its message is the whole story. */
  private static final class DayNotInMonth extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    DayNotInMonth(String message) {
      super(message);
    }
  }

  private static String abbreviate(String v) {
    return v.length() <= 40 ? v : v.substring(0, 40) + "...";
  }
}
