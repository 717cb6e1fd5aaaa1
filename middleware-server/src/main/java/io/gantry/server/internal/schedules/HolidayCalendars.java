package io.gantry.server.internal.schedules;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.ServerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The holiday calendars of the {@code calendar.NAME.*} settings, read when first asked for and
 * kept: a file is read again when its modification time or size changes, a query runs again once
 * its {@code refresh} has passed. When a calendar read before cannot be read now, its last dates
 * stay in use (and the server log says why), so a database outage does not make holidays working
 * days.
 */
public final class HolidayCalendars {
  private static final Logger log = LoggerFactory.getLogger(HolidayCalendars.class);

  /** The largest calendar file read, and the most dates one calendar holds. */
  static final long MAX_FILE_BYTES = 1 << 20;

  static final int MAX_DATES = 100_000;

  private static final int QUERY_TIMEOUT_SECONDS = 30;

  private final Map<String, ServerConfig.HolidayCalendar> settings;
  private final Map<String, NamedDataSource> dataSources;
  private final LongSupplier nanoTime;
  private final Map<String, Read> read = new ConcurrentHashMap<>();

  /**
   * One lock per calendar: a query may take {@value #QUERY_TIMEOUT_SECONDS} s, and only the callers
   * of that calendar wait for it (once, rather than each running it again).
   */
  private final Map<String, Object> locks;

  /** What was last read of one calendar, and what it was read from. */
  private record Read(Holidays holidays, Object stamp, long atNanos) {}

  /**
   * @throws ConfigException when a calendar names a data source that is not defined
   */
  public HolidayCalendars(
      Map<String, ServerConfig.HolidayCalendar> settings,
      Map<String, NamedDataSource> dataSources) {
    this(settings, dataSources, System::nanoTime);
  }

  HolidayCalendars(
      Map<String, ServerConfig.HolidayCalendar> settings,
      Map<String, NamedDataSource> dataSources,
      LongSupplier nanoTime) {
    for (ServerConfig.HolidayCalendar c : settings.values()) {
      if (c.dataSource() != null && !dataSources.containsKey(c.dataSource())) {
        throw new ConfigException(
            "calendar." + c.name() + ".data-source",
            "names data source '" + c.dataSource() + "', which is not defined (datasource.*)");
      }
    }
    this.settings = Map.copyOf(settings);
    this.dataSources = Map.copyOf(dataSources);
    this.nanoTime = nanoTime;
    Map<String, Object> lockOf = new HashMap<>();
    settings.keySet().forEach(name -> lockOf.put(name, new Object()));
    this.locks = Map.copyOf(lockOf);
  }

  /** The names of the calendars, sorted. */
  SortedSet<String> names() {
    return new TreeSet<>(settings.keySet());
  }

  boolean has(String name) {
    return settings.containsKey(name);
  }

  /**
   * The calendar's dates, read again if its source changed.
   *
   * @throws CalendarUnavailableException when it cannot be read and never could be
   * @throws IllegalArgumentException for a name that is not a calendar
   */
  Holidays get(String name) {
    ServerConfig.HolidayCalendar calendar = settings.get(name);
    if (calendar == null) {
      throw new IllegalArgumentException("no holiday calendar " + name);
    }
    synchronized (locks.get(name)) {
      return getLocked(name, calendar);
    }
  }

  private Holidays getLocked(String name, ServerConfig.HolidayCalendar calendar) {
    Read last = read.get(name);
    try {
      Read now = calendar.file() != null ? readFile(calendar, last) : runQuery(calendar, last);
      if (!now.equals(last)) {
        read.put(name, now);
        log.info("holiday calendar {}: {} date(s) read", name, now.holidays().dates().size());
      }
      return now.holidays();
    } catch (CalendarUnavailableException e) {
      if (last == null) {
        throw e;
      }
      log.warn("holiday calendar {}: still using the dates read before: {}", name, e.getMessage());
      return last.holidays();
    }
  }

  private Read readFile(ServerConfig.HolidayCalendar calendar, Read last) {
    Path file = calendar.file();
    try {
      BasicFileAttributes a =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isRegularFile() || a.size() > MAX_FILE_BYTES) {
        throw unavailable(
            calendar,
            file + " is not a regular file of at most " + MAX_FILE_BYTES + " bytes",
            null);
      }
      List<Object> stamp = Arrays.asList(a.lastModifiedTime(), a.size(), a.fileKey());
      if (last != null && last.stamp().equals(stamp)) {
        return last;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return new Read(
          Holidays.of(calendar.name(), CalendarFile.dates(file.toString(), lines)),
          stamp,
          nanoTime.getAsLong());
    } catch (IOException e) {
      throw unavailable(calendar, file + " cannot be read: " + e, e);
    } catch (IllegalArgumentException e) {
      throw unavailable(calendar, e.getMessage(), e);
    }
  }

  private Read runQuery(ServerConfig.HolidayCalendar calendar, Read last) {
    long now = nanoTime.getAsLong();
    Duration refresh = calendar.refresh();
    if (last != null && now - last.atNanos() < refresh.toNanos()) {
      return last;
    }
    NamedDataSource source = dataSources.get(calendar.dataSource());
    // the reader account where there is one: a calendar only reads
    NamedDataSource.Account account =
        source.reader() != null
            ? source.reader()
            : new NamedDataSource.Account(source.user(), source.password());
    char[] password = account.password().read();
    try (Connection c =
        DriverManager.getConnection(source.jdbcUrl(), account.user(), new String(password))) {
      c.setReadOnly(true);
      try (PreparedStatement ps = c.prepareStatement(calendar.query())) {
        ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        ps.setMaxRows(MAX_DATES + 1);
        TreeSet<LocalDate> dates = new TreeSet<>();
        try (ResultSet rs = ps.executeQuery()) {
          int row = 0;
          while (rs.next()) {
            row++;
            dates.add(date(calendar, rs, row));
          }
          if (row > MAX_DATES) {
            throw unavailable(calendar, "the query gives more than " + MAX_DATES + " rows", null);
          }
        }
        return new Read(Holidays.of(calendar.name(), dates), "query", now);
      }
    } catch (SQLException e) {
      throw unavailable(
          calendar,
          "the query on data source "
              + calendar.dataSource()
              + " failed (SQLState "
              + e.getSQLState()
              + "): "
              + e.getMessage(),
          e);
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  private static LocalDate date(ServerConfig.HolidayCalendar calendar, ResultSet rs, int row)
      throws SQLException {
    Object value = rs.getObject(1);
    try {
      if (value instanceof java.sql.Date d) {
        return d.toLocalDate();
      }
      if (value instanceof LocalDate d) {
        return d;
      }
      if (value instanceof String s) {
        return LocalDate.parse(s.strip());
      }
    } catch (DateTimeException e) {
      throw unavailable(calendar, "row " + row + ": '" + value + "' is not a date", e);
    }
    throw unavailable(
        calendar,
        "row "
            + row
            + ": the first column must be a DATE (or text like 2026-12-25), and it is "
            + (value == null ? "NULL" : value.getClass().getSimpleName()),
        null);
  }

  private static CalendarUnavailableException unavailable(
      ServerConfig.HolidayCalendar calendar, String why, Throwable cause) {
    return new CalendarUnavailableException(
        "holiday calendar " + calendar.name() + ": " + why, cause);
  }
}
