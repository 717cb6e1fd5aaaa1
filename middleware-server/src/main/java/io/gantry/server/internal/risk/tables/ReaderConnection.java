package io.gantry.server.internal.risk.tables;

import io.gantry.server.config.NamedDataSource;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A read-only connection to a results data source with its reader account where it has one (SELECT
 * only), else its stage-out account: the accounts {@link ResultTables} reads with.
 */
final class ReaderConnection {
  private ReaderConnection() {}

  static Connection open(NamedDataSource source) throws SQLException {
    NamedDataSource.Account account =
        source.reader() != null
            ? source.reader()
            : new NamedDataSource.Account(source.user(), source.password());
    char[] password = account.password().read();
    Connection c;
    try {
      c = DriverManager.getConnection(source.jdbcUrl(), account.user(), new String(password));
    } finally {
      Arrays.fill(password, '\0');
    }
    try {
      c.setReadOnly(true);
      return c;
    } catch (SQLException e) {
      c.close(); // a connection the caller never gets must not stay open
      throw e;
    }
  }

  /** Whether the database has table {@code name} (lower-case on PostgreSQL, either on H2). */
  static boolean hasTable(Connection c, String name) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    for (String spelling : List.of(name, name.toUpperCase(Locale.ROOT))) {
      try (ResultSet rs = meta.getTables(null, null, spelling, new String[] {"TABLE", "VIEW"})) {
        if (rs.next()) {
          return true;
        }
      }
    }
    return false;
  }
}
