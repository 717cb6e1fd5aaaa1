package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A read-only connection to a results data source with its reader account where it has one (SELECT
 * only), else its stage-out account: the accounts {@link ResultTables} and {@link BacktestTables}
 * read with. The password is cleared as soon as the connection is made.
 */
final class ReadOnlyConnection {
  private ReadOnlyConnection() {}

  static Connection open(NamedDataSource source) throws SQLException {
    NamedDataSource.Account account =
        source.reader() != null
            ? source.reader()
            : new NamedDataSource.Account(source.user(), source.password());
    char[] password = account.password().read();
    try {
      Connection c =
          DriverManager.getConnection(source.jdbcUrl(), account.user(), new String(password));
      c.setReadOnly(true);
      return c;
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /** Whether the database has {@code table} (lower-case on PostgreSQL, either on H2). */
  static boolean hasTable(Connection c, String table) throws SQLException {
    for (String name : new String[] {table, table.toUpperCase(java.util.Locale.ROOT)}) {
      try (java.sql.ResultSet rs =
          c.getMetaData().getTables(null, null, name, new String[] {"TABLE"})) {
        if (rs.next()) {
          return true;
        }
      }
    }
    return false;
  }
}
