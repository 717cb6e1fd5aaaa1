package io.gantry.server.internal.schedules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holiday calendars: a schedule's next time passes over the calendar's dates (in the schedule's
 * zone), times that came only on holidays are found for the runner to note, and calendars are read
 * from a file (again when it changes) or from a query on a real H2 database as a SELECT-only
 * account (again after its refresh).
 */
class HolidayCalendarTest {
  @TempDir Path dir;

  /** 18:30 London time, Monday to Friday, with Christmas Day and the Boxing Day holiday off. */
  private static ScheduleTimes weekdaysWithChristmasOff() {
    return new ScheduleTimes(
        CronSchedule.of("30 18 * * 1-5", "Europe/London"),
        Holidays.of("uk", Set.of(LocalDate.parse("2026-12-25"), LocalDate.parse("2026-12-28"))));
  }

  @Test
  void theNextTimeSkipsTheCalendarsDates() {
    ScheduleTimes times = weekdaysWithChristmasOff();
    // Thursday 24th: its own time is a working time
    assertEquals(
        Optional.of(Instant.parse("2026-12-24T18:30:00Z")),
        times.next(Instant.parse("2026-12-24T12:00:00Z")));
    // then Friday 25th (holiday), the weekend, Monday 28th (holiday): Tuesday 29th
    assertEquals(
        Optional.of(Instant.parse("2026-12-29T18:30:00Z")),
        times.next(Instant.parse("2026-12-24T18:30:00Z")));
    // without a calendar the same expression runs on the 25th
    assertEquals(
        Optional.of(Instant.parse("2026-12-25T18:30:00Z")),
        new ScheduleTimes(CronSchedule.of("30 18 * * 1-5", "Europe/London"), Holidays.NONE)
            .next(Instant.parse("2026-12-24T18:30:00Z")));
  }

  @Test
  void aHolidayIsTheDateInTheSchedulesZone() {
    // 01:00 in Tokyo on 25 December is 16:00 UTC on the 24th: a holiday there, whatever UTC says
    ScheduleTimes tokyo =
        new ScheduleTimes(
            CronSchedule.of("0 1 * * *", "Asia/Tokyo"),
            Holidays.of("jp", Set.of(LocalDate.parse("2026-12-25"))));
    assertEquals(
        Optional.of(Instant.parse("2026-12-25T16:00:00Z")),
        tokyo.next(Instant.parse("2026-12-23T17:00:00Z")));
  }

  @Test
  void aMinutelyScheduleJumpsOverAHolidayAtOnce() {
    ScheduleTimes minutely =
        new ScheduleTimes(
            CronSchedule.of("* * * * *", "UTC"),
            Holidays.of("x", Set.of(LocalDate.parse("2026-12-25"), LocalDate.parse("2026-12-26"))));
    assertEquals(
        Optional.of(Instant.parse("2026-12-27T00:00:00Z")),
        minutely.next(Instant.parse("2026-12-24T23:59:00Z")));
  }

  @Test
  void aCalendarOfEveryDateLeavesNoNextTime() {
    java.util.TreeSet<LocalDate> all = new java.util.TreeSet<>();
    for (LocalDate d = LocalDate.parse("2026-01-01");
        d.isBefore(LocalDate.parse("2040-01-01"));
        d = d.plusDays(1)) {
      all.add(d);
    }
    ScheduleTimes never =
        new ScheduleTimes(CronSchedule.of("0 6 * * *", "UTC"), Holidays.of("all", all));
    assertEquals(Optional.empty(), never.next(Instant.parse("2026-06-01T00:00:00Z")));
  }

  @Test
  void dueTimesLeaveHolidaysOutAndTimesOnlyOnHolidaysAreFoundForTheNote() {
    ScheduleTimes times = weekdaysWithChristmasOff();
    // Wednesday 23rd to Tuesday 29th: 23rd, 24th, 29th are working times; 25th and 28th are not
    CronSchedule.Due due =
        times
            .due(Instant.parse("2026-12-23T12:00:00Z"), Instant.parse("2026-12-29T20:00:00Z"))
            .orElseThrow();
    assertEquals(Instant.parse("2026-12-29T18:30:00Z"), due.latest());
    assertEquals(3, due.count());
    // the server down from the 24th's run to the evening of the 28th: run-once runs nothing late
    // for the holidays, and the latest holiday time is what the schedule records as skipped
    Instant after = Instant.parse("2026-12-24T18:30:00Z");
    Instant now = Instant.parse("2026-12-28T19:00:00Z");
    assertEquals(Optional.empty(), times.due(after, now));
    assertEquals(
        Optional.of(Instant.parse("2026-12-28T18:30:00Z")), times.holidayPassed(after, now));
    // a working time among them: nothing to note, the working time runs
    assertEquals(Optional.empty(), times.holidayPassed(Instant.parse("2026-12-23T12:00:00Z"), now));
  }

  @Test
  void aFileCalendarIsReadAgainWhenItChangesAndKeepsItsDatesWhenItBreaks() throws Exception {
    Path file = dir.resolve("uk.dates");
    Files.writeString(file, "# UK bank holidays\n2026-12-25 Christmas Day\n\n2026-12-28\n");
    HolidayCalendars calendars =
        new HolidayCalendars(
            Map.of("uk", new ServerConfig.HolidayCalendar("uk", file, null, null, Duration.ZERO)),
            Map.of());
    assertEquals(
        Set.of(LocalDate.parse("2026-12-25"), LocalDate.parse("2026-12-28")),
        calendars.get("uk").dates());

    Files.writeString(file, "2026-12-25\n2026-12-28\n2027-01-01 New Year's Day\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
    assertTrue(calendars.get("uk").holds(LocalDate.parse("2027-01-01")), "read again");

    Files.writeString(file, "2026-12-25\n25/12/2027\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
    assertTrue(
        calendars.get("uk").holds(LocalDate.parse("2027-01-01")),
        "a broken file leaves the dates read before in use");

    HolidayCalendars fresh =
        new HolidayCalendars(
            Map.of("uk", new ServerConfig.HolidayCalendar("uk", file, null, null, Duration.ZERO)),
            Map.of());
    CalendarUnavailableException broken =
        assertThrows(CalendarUnavailableException.class, () -> fresh.get("uk"));
    assertTrue(
        broken.getMessage().contains("line 2: '25/12/2027' is not a date"), broken.getMessage());
  }

  @Test
  void aQueryCalendarReadsAsTheDataSourcesReaderAndRunsAgainAfterItsRefresh() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("cal");
    try (Connection owner = DriverManager.getConnection(url, "owner", "");
        Statement s = owner.createStatement()) {
      s.execute("CREATE TABLE bank_holiday (holiday DATE NOT NULL, region VARCHAR(8))");
      s.execute(
          "INSERT INTO bank_holiday VALUES (DATE '2026-12-25', 'UK'), (DATE '2026-07-04', 'US')");
      s.execute("CREATE USER reader PASSWORD 'reader-secret'");
      s.execute("GRANT SELECT ON bank_holiday TO reader");
    }
    Path readerPassword = dir.resolve("reader.password");
    Files.writeString(readerPassword, "reader-secret");
    NamedDataSource market =
        new NamedDataSource(
            "market",
            url,
            "owner",
            new PasswordSource.None(),
            Set.of(),
            new NamedDataSource.Account("reader", new PasswordSource.FromFile(readerPassword)));
    AtomicLong nanos = new AtomicLong();
    ServerConfig.HolidayCalendar uk =
        new ServerConfig.HolidayCalendar(
            "uk",
            null,
            "market",
            "SELECT holiday FROM bank_holiday WHERE region = 'UK'",
            Duration.ofMinutes(10));
    HolidayCalendars calendars =
        new HolidayCalendars(Map.of("uk", uk), Map.of("market", market), nanos::get);
    assertEquals(Set.of(LocalDate.parse("2026-12-25")), calendars.get("uk").dates());

    try (Connection owner = DriverManager.getConnection(url, "owner", "");
        Statement s = owner.createStatement()) {
      s.execute("INSERT INTO bank_holiday VALUES (DATE '2026-12-28', 'UK')");
    }
    nanos.addAndGet(Duration.ofMinutes(9).toNanos());
    assertEquals(1, calendars.get("uk").dates().size(), "kept until its refresh");
    nanos.addAndGet(Duration.ofMinutes(2).toNanos());
    assertTrue(calendars.get("uk").holds(LocalDate.parse("2026-12-28")), "read again");

    // the reader only reads: a query that writes is refused by the database
    ServerConfig.HolidayCalendar writing =
        new ServerConfig.HolidayCalendar(
            "w", null, "market", "DELETE FROM bank_holiday", Duration.ofMinutes(10));
    HolidayCalendars refused =
        new HolidayCalendars(Map.of("w", writing), Map.of("market", market), nanos::get);
    CalendarUnavailableException e =
        assertThrows(CalendarUnavailableException.class, () -> refused.get("w"));
    assertTrue(e.getMessage().contains("data source market failed"), e.getMessage());

    ConfigException unknown =
        assertThrows(
            ConfigException.class,
            () ->
                new HolidayCalendars(
                    Map.of(
                        "x",
                        new ServerConfig.HolidayCalendar(
                            "x", null, "nope", "SELECT 1", Duration.ZERO)),
                    Map.of()));
    assertTrue(unknown.getMessage().contains("calendar.x.data-source"), unknown.getMessage());
  }
}
