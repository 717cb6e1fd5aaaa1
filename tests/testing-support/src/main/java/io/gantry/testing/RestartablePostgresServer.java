package io.gantry.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server that can be restarted on the same data directory and port, as an
 * operator restarts a production database: what it committed survives, every connection open at the
 * restart breaks. For soaks and outage tests; {@link EmbeddedPostgresServer} is the one to share
 * when nothing restarts. Trusts local connections (user {@code postgres}, no password).
 */
public final class RestartablePostgresServer implements AutoCloseable {
  private final Path dataDirectory;
  private EmbeddedPostgres postgres;
  private int port;

  private RestartablePostgresServer(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  /** Starts a server on a fresh data directory {@code dataDirectory} and a free port. */
  public static RestartablePostgresServer start(Path dataDirectory) {
    RestartablePostgresServer server = new RestartablePostgresServer(dataDirectory);
    server.startProcess(0);
    return server;
  }

  private void startProcess(int fixedPort) {
    try {
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "200");
      if (fixedPort != 0) {
        builder.setPort(fixedPort);
      }
      postgres = builder.start();
      port = postgres.getPort();
    } catch (IOException e) {
      throw new UncheckedIOException("PostgreSQL did not start on " + dataDirectory, e);
    }
  }

  /** Stops the server (fast shutdown: open sessions are ended) and starts it again. */
  public synchronized void restart() {
    stop();
    startProcess(port);
  }

  private void stop() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("PostgreSQL did not stop cleanly", e);
    }
  }

  public int port() {
    return port;
  }

  public String user() {
    return "postgres";
  }

  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** Creates database {@code name}. */
  public void createDatabase(String name) {
    try (Connection c = connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
  }

  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), user(), "");
  }

  @Override
  public synchronized void close() {
    stop();
  }
}
