package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Schedules (configuration.md, "Schedules"): how often they are checked, the test clock, and the
 * holiday calendars schedules may name.
 */
final class ScheduleSection {
  private ScheduleSection() {}

  static final Setting<Duration> CHECK_INTERVAL =
      Setting.of("schedules.check-interval", SettingType.duration())
          .byDefault("PT5S")
          .means("how often the server looks for schedules whose time has come");
  static final Setting<Path> TEST_CLOCK_FILE =
      Setting.of("schedules.test-clock-file", SettingType.path())
          .means(
              "tests only: a file holding an ISO-8601 instant that is the schedules' clock;"
                  + " accepted only with listen.host on loopback");
  static final Setting<Path> CALENDAR_FILE =
      Setting.of("calendar.NAME.file", SettingType.path())
          .means("holiday calendar NAME's dates: a file of ISO dates (2026-12-25), one a line");
  static final Setting<String> CALENDAR_DATA_SOURCE =
      Setting.of("calendar.NAME.data-source", SettingType.text())
          .means("or the named data source whose reader account runs calendar NAME's query");
  static final Setting<String> CALENDAR_QUERY =
      Setting.of("calendar.NAME.query", SettingType.anyText())
          .means("the SELECT on that data source whose first column is calendar NAME's dates");
  static final Setting<Duration> CALENDAR_REFRESH =
      Setting.of("calendar.NAME.refresh", SettingType.duration())
          .byDefault("PT10M")
          .means("how long calendar NAME's query result is used before the query runs again");

  static ServerConfig.Schedules read(SettingValues values) {
    Path clockFile = values.find(TEST_CLOCK_FILE).orElse(null);
    String host = values.get(ServerSection.LISTEN_HOST);
    if (clockFile != null && !Loopback.is(host)) {
      // a clock someone can set makes schedules fire at will: never on a server others reach
      throw new ConfigException(
          TEST_CLOCK_FILE.key(),
          "is for tests and runs only on a loopback listener, and listen.host is "
              + host
              + "; remove it");
    }
    return new ServerConfig.Schedules(values.get(CHECK_INTERVAL), clockFile, calendars(values));
  }

  /** Each calendar reads a file or runs a query: exactly one of the two. */
  private static Map<String, ServerConfig.HolidayCalendar> calendars(SettingValues values) {
    Map<String, ServerConfig.HolidayCalendar> calendars = new LinkedHashMap<>();
    for (String name :
        values.names(CALENDAR_FILE, CALENDAR_DATA_SOURCE, CALENDAR_QUERY, CALENDAR_REFRESH)) {
      Path file = values.find(CALENDAR_FILE, name).orElse(null);
      String dataSource = values.find(CALENDAR_DATA_SOURCE, name).orElse(null);
      String query = values.find(CALENDAR_QUERY, name).orElse(null);
      if (file != null && (dataSource != null || query != null)) {
        throw new ConfigException(
            CALENDAR_FILE.keyFor(name),
            "calendar "
                + name
                + " reads a file or runs a query, not both; remove "
                + CALENDAR_DATA_SOURCE.keyFor(name)
                + " and "
                + CALENDAR_QUERY.keyFor(name)
                + ", or this");
      }
      if (file == null && (dataSource == null || query == null || query.isBlank())) {
        throw new ConfigException(
            (dataSource == null ? CALENDAR_DATA_SOURCE : CALENDAR_QUERY).keyFor(name),
            "calendar "
                + name
                + " needs "
                + CALENDAR_FILE.keyFor(name)
                + ", or both "
                + CALENDAR_DATA_SOURCE.keyFor(name)
                + " and "
                + CALENDAR_QUERY.keyFor(name));
      }
      calendars.put(
          name,
          new ServerConfig.HolidayCalendar(
              name,
              file,
              dataSource,
              query == null ? null : query.strip(),
              values.get(CALENDAR_REFRESH, name)));
    }
    return calendars;
  }
}
