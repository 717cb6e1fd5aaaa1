package io.gantry.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
              // zonky gives up after 10 s; a start after a crash replays the write-ahead log first,
              // which on a loaded machine takes longer
              .setPGStartupWait(EmbeddedPostgresServer.STARTUP_WAIT)
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "200")
              // PostgreSQL's own default, which zonky turns off: a commit answered is on disk, so
              // a crash (crashAndRestart) loses no acknowledged transaction, as in production
              .setServerConfig("synchronous_commit", "on");
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

  /**
   * A crash: kill -9 of the postmaster (no shutdown checkpoint, its open sessions cut), then a
   * start on the same data directory and port, where PostgreSQL recovers from its write-ahead log.
   * The backends are left to notice their postmaster's death and end, as they do after a real
   * crash; a new postmaster cannot start while one of them still holds the old shared memory, so
   * this waits for them (and kills, after {@code BACKENDS_GONE}, any still there).
   */
  public synchronized void crashAndRestart() {
    ProcessHandle postmaster = postmaster();
    List<ProcessHandle> backends = postmaster.descendants().toList();
    postmaster.destroyForcibly();
    awaitEnd(postmaster);
    for (ProcessHandle backend : backends) {
      awaitEnd(backend);
    }
    try {
      // zonky's stop finds no server (it logs that) and lets go of its lock on the data directory
      postgres.close();
    } catch (IOException | RuntimeException noServerToStop) {
      // expected: the server is gone
    }
    startProcess(port);
  }

  private static final Duration BACKENDS_GONE = Duration.ofSeconds(10);

  /** The running postmaster: the first line of its data directory's postmaster.pid. */
  private ProcessHandle postmaster() {
    Path pidFile = dataDirectory.resolve("postmaster.pid");
    try {
      long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
      return ProcessHandle.of(pid)
          .orElseThrow(() -> new IllegalStateException("no postmaster " + pid + " running"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + pidFile, e);
    }
  }

  private static void awaitEnd(ProcessHandle process) {
    try {
      process.onExit().get(BACKENDS_GONE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException stillThere) {
      process.destroyForcibly();
      process.onExit().join();
    } catch (ExecutionException e) {
      throw new IllegalStateException("waiting for process " + process.pid(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for process " + process.pid(), e);
    }
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
