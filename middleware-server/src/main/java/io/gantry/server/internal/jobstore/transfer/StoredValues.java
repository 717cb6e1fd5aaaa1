package io.gantry.server.internal.jobstore.transfer;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;

/**
 * A column's value read the same way from H2 and PostgreSQL, and written as text the same way for
 * the checksum: the two drivers hand back different Java types for the same SQL type (a {@code
 * TIMESTAMP WITH TIME ZONE} is an OffsetDateTime from H2 and a Timestamp from PostgreSQL, a {@code
 * TEXT} a Clob from H2 and a String from PostgreSQL, a BOOLEAN a BIT from PostgreSQL's metadata).
 */
final class StoredValues {
  private StoredValues() {}

  /** The value of column {@code i} (1-based), or null; refuses a type the job store never uses. */
  static Object read(ResultSet rs, int i) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    Object value =
        switch (meta.getColumnType(i)) {
          case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE ->
              rs.getObject(i, OffsetDateTime.class);
          case Types.CHAR,
              Types.VARCHAR,
              Types.LONGVARCHAR,
              Types.CLOB,
              Types.NCHAR,
              Types.NVARCHAR,
              Types.NCLOB ->
              rs.getString(i);
          case Types.BOOLEAN, Types.BIT -> rs.getBoolean(i);
          case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> rs.getLong(i);
          case Types.DOUBLE, Types.FLOAT, Types.REAL -> rs.getDouble(i);
          default ->
              throw new SQLException(
                  "column "
                      + meta.getTableName(i)
                      + "."
                      + meta.getColumnName(i)
                      + " has SQL type "
                      + meta.getColumnTypeName(i)
                      + ", which store migrate does not know how to move");
        };
    return rs.wasNull() ? null : value;
  }

  /** The value as the checksum sees it: the same text for the same value on either database. */
  static String canonical(Object value) {
    if (value == null) {
      return "\u0000null";
    }
    if (value instanceof OffsetDateTime t) {
      return t.toInstant().toString();
    }
    return value.toString();
  }
}
