package io.gantry.staging.internal.csv;

import java.math.BigDecimal;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;

/**
 * Binds the fields of one CSV row to a statement's {@code ?} parameters, in order, converting the
 * text to each parameter's SQL type as the driver reports it (numbers as exact decimals, ISO 8601
 * dates and timestamps, base64 binary, NULL for an empty unquoted field). A value that does not
 * convert fails with the file, line, parameter and value, before the database sees anything.
 */
public final class ParameterBinder {
  private final int[] types;
  private final boolean[] notNullable;
  private final String fileName;

  private ParameterBinder(int[] types, boolean[] notNullable, String fileName) {
    this.types = types;
    this.notNullable = notNullable;
    this.fileName = fileName;
  }

  /** Reads the parameter types once; drivers that cannot tell get text binding. */
  public static ParameterBinder forStatement(PreparedStatement ps, String fileName)
      throws SQLException {
    ParameterMetaData md = ps.getParameterMetaData();
    int count = md.getParameterCount();
    int[] types = new int[count];
    boolean[] notNullable = new boolean[count];
    for (int i = 0; i < count; i++) {
      try {
        types[i] = md.getParameterType(i + 1);
        notNullable[i] = md.isNullable(i + 1) == ParameterMetaData.parameterNoNulls;
      } catch (SQLException e) {
        types[i] =
            Types.VARCHAR; // driver cannot describe parameters: let the database convert text
      }
    }
    return new ParameterBinder(types, notNullable, fileName);
  }

  public int parameterCount() {
    return types.length;
  }

  /** Binds {@code fields[0..parameterCount)}; {@code line} is for messages. */
  public void bind(PreparedStatement ps, String[] fields, long line)
      throws SQLException, BindException {
    bind(ps, 0, fields, line);
  }

  /**
   * Binds {@code fields[0..parameterCount)} to parameters {@code offset + 1 ..}: one row's share of
   * a statement that repeats the bound statement several times (batched binding).
   */
  public void bind(PreparedStatement ps, int offset, String[] fields, long line)
      throws SQLException, BindException {
    for (int i = 0; i < types.length; i++) {
      String value = fields[i];
      if (value == null) {
        if (notNullable[i]) {
          throw new BindException(
              where(line, i) + " is empty (NULL) but the parameter does not allow NULL");
        }
        ps.setNull(offset + i + 1, types[i] == Types.OTHER ? Types.VARCHAR : types[i]);
        continue;
      }
      try {
        bindValue(ps, offset + i + 1, types[i], value);
      } catch (DateTimeParseException | IllegalArgumentException e) {
        throw new BindException(
            where(line, i) + ": '" + abbreviate(value) + "' is not a valid " + typeName(types[i]));
      }
    }
  }

  private static void bindValue(PreparedStatement ps, int p, int type, String v)
      throws SQLException {
    switch (type) {
      case Types.TINYINT:
      case Types.SMALLINT:
      case Types.INTEGER:
      case Types.BIGINT:
        ps.setLong(p, Long.parseLong(v.trim()));
        break;
      case Types.DECIMAL:
      case Types.NUMERIC:
        ps.setBigDecimal(p, new BigDecimal(v.trim()));
        break;
      case Types.REAL:
      case Types.FLOAT:
      case Types.DOUBLE:
        ps.setDouble(p, Double.parseDouble(v.trim()));
        break;
      case Types.BIT:
      case Types.BOOLEAN:
        ps.setBoolean(p, parseBoolean(v));
        break;
      case Types.DATE:
        ps.setObject(p, LocalDate.parse(v.trim()));
        break;
      case Types.TIME:
        ps.setObject(p, LocalTime.parse(v.trim()));
        break;
      case Types.TIMESTAMP:
        ps.setObject(p, LocalDateTime.parse(v.trim().replace(' ', 'T')));
        break;
      case Types.TIMESTAMP_WITH_TIMEZONE:
        ps.setObject(p, OffsetDateTime.parse(v.trim().replace(' ', 'T')));
        break;
      case Types.BINARY:
      case Types.VARBINARY:
      case Types.LONGVARBINARY:
      case Types.BLOB:
        ps.setBytes(p, Base64.getDecoder().decode(v.trim()));
        break;
      default:
        ps.setString(p, v);
    }
  }

  private static boolean parseBoolean(String v) {
    switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true":
      case "t":
      case "1":
      case "yes":
        return true;
      case "false":
      case "f":
      case "0":
      case "no":
        return false;
      default:
        throw new IllegalArgumentException(v);
    }
  }

  private String where(long line, int index) {
    return fileName + " line " + line + ", parameter " + (index + 1);
  }

  private static String typeName(int type) {
    try {
      return java.sql.JDBCType.valueOf(type).getName();
    } catch (IllegalArgumentException e) {
      return "SQL type " + type;
    }
  }

  private static String abbreviate(String v) {
    return v.length() <= 40 ? v : v.substring(0, 40) + "...";
  }

  /** A CSV value that cannot be bound; the message says where and why. */
  public static final class BindException extends Exception {
    public BindException(String message) {
      super(message);
    }
  }
}
