package io.gantry.staging.internal.csv;

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

  /** Reads column {@code i} of the current row as CSV text, or null for SQL NULL. */
  @FunctionalInterface
  public interface ColumnFormat {
    String read(ResultSet rs, int i) throws SQLException;
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
      return SqlValueFormats::offsetTimestamp;
    }
    if (name.equals("timetz") || name.startsWith("time with time zone")) {
      return (rs, i) -> text(rs.getObject(i, OffsetTime.class));
    }
    switch (type) {
      case Types.BIT:
      case Types.BOOLEAN:
        return (rs, i) -> {
          boolean v = rs.getBoolean(i);
          return rs.wasNull() ? null : (v ? "true" : "false");
        };
      case Types.TINYINT:
      case Types.SMALLINT:
      case Types.INTEGER:
      case Types.BIGINT:
        return (rs, i) -> {
          long v = rs.getLong(i);
          return rs.wasNull() ? null : Long.toString(v);
        };
      case Types.DECIMAL:
      case Types.NUMERIC:
        return (rs, i) -> {
          BigDecimal v = rs.getBigDecimal(i);
          return v == null ? null : v.toPlainString();
        };
      case Types.REAL:
      case Types.FLOAT:
      case Types.DOUBLE:
        return (rs, i) -> {
          double v = rs.getDouble(i);
          return rs.wasNull() ? null : Double.toString(v);
        };
      case Types.DATE:
        return (rs, i) -> text(rs.getObject(i, LocalDate.class));
      case Types.TIME:
        return (rs, i) -> text(rs.getObject(i, LocalTime.class));
      case Types.TIMESTAMP:
        return (rs, i) -> {
          LocalDateTime v = rs.getObject(i, LocalDateTime.class);
          return v == null ? null : IsoTimestamps.local(v);
        };
      case Types.TIMESTAMP_WITH_TIMEZONE:
        return SqlValueFormats::offsetTimestamp;
      case Types.TIME_WITH_TIMEZONE:
        return (rs, i) -> text(rs.getObject(i, OffsetTime.class));
      case Types.BINARY:
      case Types.VARBINARY:
      case Types.LONGVARBINARY:
      case Types.BLOB:
        return (rs, i) -> {
          byte[] v = rs.getBytes(i);
          return v == null ? null : Base64.getEncoder().encodeToString(v);
        };
      default:
        return ResultSet::getString;
    }
  }

  private static String text(Object v) {
    return v == null ? null : v.toString();
  }

  private static String offsetTimestamp(ResultSet rs, int i) throws SQLException {
    OffsetDateTime v = rs.getObject(i, OffsetDateTime.class);
    return v == null ? null : IsoTimestamps.offset(v);
  }
}
