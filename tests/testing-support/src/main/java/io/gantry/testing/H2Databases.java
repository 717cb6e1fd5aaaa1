package io.gantry.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

/**
 * Private in-memory H2 databases for tests. Each URL names a new database that lives until the JVM
 * exits ({@code DB_CLOSE_DELAY=-1}), so a connection pool may open and close connections freely
 * without the data vanishing in between.
 */
public final class H2Databases {
  private H2Databases() {}

  /** A JDBC URL for a new, empty in-memory database. */
  public static String newInMemoryUrl() {
    return "jdbc:h2:mem:gantry_"
        + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
  }

  public static String user() {
    return "sa";
  }

  public static Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url, user(), "");
  }
}
