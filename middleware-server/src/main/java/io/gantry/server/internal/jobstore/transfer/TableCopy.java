package io.gantry.server.internal.jobstore.transfer;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Copies one table's rows from one store's connection to another's, in batches. */
final class TableCopy {
  private static final int BATCH = 500;

  private TableCopy() {}

  /** Copies {@code table}; returns the digest of the rows as read from the source. */
  static StoreSummary.Table copy(Connection from, Connection to, String table) throws SQLException {
    TableDigest digest = new TableDigest();
    try (Statement s = from.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
      List<String> columns = columns(rs);
      String insert =
          "INSERT INTO "
              + table
              + " ("
              + String.join(", ", columns)
              + ") VALUES ("
              + String.join(", ", columns.stream().map(c -> "?").toList())
              + ")";
      try (PreparedStatement ps = to.prepareStatement(insert)) {
        int pending = 0;
        while (rs.next()) {
          List<Object> row = row(rs);
          digest.addRow(columns, row);
          for (int i = 0; i < row.size(); i++) {
            ps.setObject(i + 1, row.get(i));
          }
          ps.addBatch();
          if (++pending == BATCH) {
            ps.executeBatch();
            pending = 0;
          }
        }
        if (pending > 0) {
          ps.executeBatch();
        }
      }
    }
    return digest.summary(table);
  }

  /** The result's column names, lower case. */
  static List<String> columns(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      names.add(meta.getColumnName(i).toLowerCase(Locale.ROOT));
    }
    return names;
  }

  /** The current row's values ({@link StoredValues#read}). */
  static List<Object> row(ResultSet rs) throws SQLException {
    List<Object> values = new ArrayList<>();
    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
      values.add(StoredValues.read(rs, i));
    }
    return values;
  }

  /**
   * Moves each identity column's next value past the copied rows: they were inserted with their own
   * numbers, which leaves the database's counter at its start, and the next job would collide with
   * the first copied one. Run it last: on H2 an ALTER TABLE commits the open transaction.
   */
  static void restartIdentities(Connection to, String table) throws SQLException {
    DatabaseMetaData meta = to.getMetaData();
    boolean postgres = meta.getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
    String stored = postgres ? table : table.toUpperCase(Locale.ROOT);
    List<String> identities = new ArrayList<>();
    try (ResultSet rs = meta.getColumns(null, to.getSchema(), stored, "%")) {
      while (rs.next()) {
        if ("YES".equals(rs.getString("IS_AUTOINCREMENT"))) {
          identities.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
        }
      }
    }
    for (String column : identities) {
      long next;
      try (Statement s = to.createStatement();
          ResultSet rs =
              s.executeQuery("SELECT COALESCE(MAX(" + column + "), 0) + 1 FROM " + table)) {
        rs.next();
        next = rs.getLong(1);
      }
      try (Statement s = to.createStatement()) {
        s.execute("ALTER TABLE " + table + " ALTER COLUMN " + column + " RESTART WITH " + next);
      }
    }
  }
}
