package io.gantry.staging;

import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.H2Databases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** A real database for a test class: H2 in memory, or a fresh database on embedded PostgreSQL. */
record TestDatabase(String kind, String jdbcUrl, String user) {

  static TestDatabase h2() {
    return new TestDatabase("h2", H2Databases.newInMemoryUrl(), H2Databases.user());
  }

  static TestDatabase postgres() {
    EmbeddedPostgresServer server = EmbeddedPostgresServer.shared();
    return new TestDatabase("postgres", server.jdbcUrl(server.createDatabase()), server.user());
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, user, "");
  }

  void execute(String... statements) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** The column type for binary data. */
  String binaryType() {
    return kind.equals("postgres") ? "bytea" : "varbinary(100)";
  }

  String timestampTzType() {
    return kind.equals("postgres") ? "timestamptz" : "timestamp with time zone";
  }

  DataSourceSpec spec(String name) {
    return new DataSourceSpec(name, jdbcUrl, user, Secret.of(""));
  }
}
