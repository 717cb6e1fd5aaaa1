package io.gantry.server.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for the job store's tests, started once per test JVM, with a fresh
 * database per test. (Belongs in tests/testing-support once the shared fixture exists there.)
 */
final class TestPostgres {
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static EmbeddedPostgres server;

  private TestPostgres() {}

  static synchronized EmbeddedPostgres server() throws IOException {
    if (server == null) {
      server = EmbeddedPostgres.builder().start();
      Runtime.getRuntime().addShutdownHook(new Thread(TestPostgres::stop));
    }
    return server;
  }

  /** Creates an empty database and returns its JDBC URL. */
  static String freshDatabase() throws IOException, SQLException {
    String name = "gantry_jobs_" + DATABASES.incrementAndGet();
    try (Connection c = server().getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return server().getJdbcUrl("postgres", name);
  }

  private static synchronized void stop() {
    try {
      if (server != null) {
        server.close();
      }
    } catch (IOException e) {
      // the JVM is exiting; the data directory is in the build's temporary folder
    }
  }
}
