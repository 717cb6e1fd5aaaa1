package io.gantry.server.internal.jobstore.transfer;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What a job store holds, table by table: rows and checksum ({@link TableDigest}). Two stores with
 * equal summaries hold the same data, whatever database each is.
 *
 * @param version the schema version (the last migration applied)
 */
public record StoreSummary(String version, List<Table> tables) {
  public StoreSummary {
    tables = List.copyOf(tables);
  }

  /** One table's row count and checksum. */
  public record Table(String name, long rows, String sha256) {}

  /** Reads every table of the store on {@code c}; call it inside one transaction for a snapshot. */
  static StoreSummary read(Connection c, String version) throws SQLException {
    List<Table> tables = new ArrayList<>();
    for (String table : StoreTables.inInsertOrder(c)) {
      TableDigest digest = new TableDigest();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
        List<String> columns = TableCopy.columns(rs);
        while (rs.next()) {
          digest.addRow(columns, TableCopy.row(rs));
        }
      }
      tables.add(digest.summary(table));
    }
    return new StoreSummary(version, tables);
  }

  /** All the rows in all the tables. */
  public long rows() {
    return tables.stream().mapToLong(Table::rows).sum();
  }

  /** One line per table: name, rows, checksum; then the schema version. */
  public void print(PrintWriter out) {
    out.printf("%-28s %10s  %s%n", "table", "rows", "sha-256");
    for (Table t : tables) {
      out.printf("%-28s %10d  %s%n", t.name(), t.rows(), t.sha256());
    }
    out.printf("schema version %s, %d rows in %d tables%n", version, rows(), tables.size());
    out.flush();
  }
}
