package io.gantry.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.xml.datatype.XMLGregorianCalendar;

/** Times as the CLI prints them: UTC instants to the second, elapsed times as h:mm:ss. */
final class Times {
  private Times() {}

  static Instant instant(XMLGregorianCalendar time) {
    return time == null ? null : time.toGregorianCalendar().toInstant();
  }

  /** ISO-8601 in UTC to the second, e.g. 2026-11-22T04:51:15Z; "-" for none. */
  static String text(XMLGregorianCalendar time) {
    Instant instant = instant(time);
    return instant == null ? "-" : instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** ISO-8601 with the server's precision, for JSON; null for none. */
  static String json(XMLGregorianCalendar time) {
    Instant instant = instant(time);
    return instant == null ? null : instant.toString();
  }

  /** 0:07, 12:30, 1:02:03. */
  static String elapsed(Duration duration) {
    long seconds = Math.max(0, duration.toSeconds());
    long h = seconds / 3600;
    long m = seconds / 60 % 60;
    long s = seconds % 60;
    return h > 0 ? String.format("%d:%02d:%02d", h, m, s) : String.format("%d:%02d", m, s);
  }
}
