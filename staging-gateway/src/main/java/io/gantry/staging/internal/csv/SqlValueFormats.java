package io.gantry.staging.internal.csv;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.Base64;
import java.util.Locale;

/**
 * Turns SQL values into CSV field text without loss, chosen once per column from the result's
 * metadata:
 *
 * <ul>
 *   <li>DECIMAL/NUMERIC: the exact decimal, plain notation ({@code 0.000001}, never {@code 1E-6});
 *   <li>integers as integers; REAL/DOUBLE as Java's shortest round-trip text;
 *   <li>DATE {@code 2024-03-31}, TIME {@code 13:45:00}, TIMESTAMP {@code 2024-03-31T13:45:00.123},
 *       with time zone {@code 2024-03-31T13:45:00Z} (ISO 8601, seconds always present);
 *   <li>binary as base64; BOOLEAN as {@code true}/{@code false}; everything else as the driver's
 *       text;
 *   <li>SQL NULL as null (see {@link CsvDialect}).
 * </ul>
 */
public final class SqlValueFormats {
  private SqlValueFormats() {}

  /**
   * One column's conversion, in two halves so that reading the result set and writing CSV can run
   * on two threads: {@link #read} takes the value from the driver, {@link #write} formats it. A
   * format may keep a scratch buffer for {@code write}: one thread writes with it at a time.
   */
  public interface ColumnFormat {
    /** The value of column {@code i} in the current row, or null for SQL NULL. */
    Object read(ResultSet rs, int i) throws SQLException;

    /** Writes a value {@link #read} returned (never null) as one field. */
    void write(Object value, CsvRowWriter out) throws IOException;
  }

  @FunctionalInterface
  private interface Read {
    Object read(ResultSet rs, int i) throws SQLException;
  }

  @FunctionalInterface
  private interface Write {
    void write(Object value, CsvRowWriter out) throws IOException;
  }

  private static ColumnFormat format(Read read, Write write) {
    return new ColumnFormat() {
      @Override
      public Object read(ResultSet rs, int i) throws SQLException {
        return read.read(rs, i);
      }

      @Override
      public void write(Object value, CsvRowWriter out) throws IOException {
        write.write(value, out);
      }
    };
  }

  /** Reads values with {@link ResultSet#getObject(int, Class)} and writes their text. */
  private static ColumnFormat asText(Class<?> type) {
    return format((rs, i) -> rs.getObject(i, type), (v, out) -> out.field(v.toString()));
  }

  public static ColumnFormat[] forColumns(ResultSetMetaData md) throws SQLException {
    ColumnFormat[] formats = new ColumnFormat[md.getColumnCount()];
    for (int i = 0; i < formats.length; i++) {
      formats[i] = forColumn(md.getColumnType(i + 1), md.getColumnTypeName(i + 1));
    }
    return formats;
  }

  static ColumnFormat forColumn(int type, String typeName) {
    String name = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
    if (name.equals("timestamptz") || name.startsWith("timestamp with time zone")) {
      return offsetTimestamp();
    }
    if (name.equals("timetz") || name.startsWith("time with time zone")) {
      return asText(OffsetTime.class);
    }
    switch (type) {
      case Types.BIT:
      case Types.BOOLEAN:
        return format(
            (rs, i) -> {
              boolean v = rs.getBoolean(i);
              return rs.wasNull() ? null : v;
            },
            (v, out) -> out.field((Boolean) v ? "true" : "false"));
      case Types.TINYINT:
      case Types.SMALLINT:
      case Types.INTEGER:
      case Types.BIGINT:
        return format(
            (rs, i) -> {
              long v = rs.getLong(i);
              return rs.wasNull() ? null : v;
            },
            (v, out) -> out.field((long) (Long) v));
      case Types.DECIMAL:
      case Types.NUMERIC:
        return format(
            ResultSet::getBigDecimal, (v, out) -> out.field(((BigDecimal) v).toPlainString()));
      case Types.REAL:
      case Types.FLOAT:
      case Types.DOUBLE:
        return format(
            (rs, i) -> {
              double v = rs.getDouble(i);
              return rs.wasNull() ? null : v;
            },
            (v, out) -> out.field(Double.toString((Double) v)));
      case Types.DATE:
        return date();
      case Types.TIME:
        return asText(LocalTime.class);
      case Types.TIMESTAMP:
        return localTimestamp();
      case Types.TIMESTAMP_WITH_TIMEZONE:
        return offsetTimestamp();
      case Types.TIME_WITH_TIMEZONE:
        return asText(OffsetTime.class);
      case Types.BINARY:
      case Types.VARBINARY:
      case Types.LONGVARBINARY:
      case Types.BLOB:
        return format(
            ResultSet::getBytes,
            (v, out) -> out.field(Base64.getEncoder().encodeToString((byte[]) v)));
      default:
        return format(ResultSet::getString, (v, out) -> out.field((String) v));
    }
  }

  // Dates and timestamps are formatted into a builder kept by the column's format, not a new
  // string per value.

  private static ColumnFormat date() {
    StringBuilder b = new StringBuilder(16);
    return format(
        (rs, i) -> rs.getObject(i, LocalDate.class),
        (v, out) -> {
          b.setLength(0);
          out.field(IsoTimestamps.appendDate(b, (LocalDate) v));
        });
  }

  private static ColumnFormat localTimestamp() {
    StringBuilder b = new StringBuilder(32);
    return format(
        (rs, i) -> rs.getObject(i, LocalDateTime.class),
        (v, out) -> {
          b.setLength(0);
          out.field(IsoTimestamps.appendLocal(b, (LocalDateTime) v));
        });
  }

  private static ColumnFormat offsetTimestamp() {
    StringBuilder b = new StringBuilder(40);
    return format(
        (rs, i) -> rs.getObject(i, OffsetDateTime.class),
        (v, out) -> {
          b.setLength(0);
          out.field(IsoTimestamps.appendOffset(b, (OffsetDateTime) v));
        });
  }
}
