package io.gantry.server.internal.jobstore;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the job store lives, checked when loaded.
 *
 * @param jdbcUrl {@code jdbc:h2:file:...} (the default) or {@code jdbc:postgresql://...}
 * @param user database user
 * @param password database password; never logged nor shown by {@link #toString()}
 * @param maximumPoolSize connections kept open (at least 2: the scheduler and the SOAP API write
 *     concurrently)
 * @param connectionTimeout how long a caller waits for a connection before it gets an error ({@code
 *     store.connection-timeout}, checked there)
 */
public record JobStoreSettings(
    String jdbcUrl, String user, String password, int maximumPoolSize, Duration connectionTimeout) {

  /**
   * A store that gives no connection in 10 s is failing (a database server stopped): the caller
   * gets an error and the storage watch a failed probe, instead of HikariCP's 30 s wait. The
   * server's {@code store.connection-timeout} has the same default.
   */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

  /**
   * H2 options: the server closes the database itself on shutdown, after the last transition is
   * stored, instead of H2's own shutdown hook racing it (DB_CLOSE_ON_EXIT=FALSE); a writer waits up
   * to 10 s for a row another transaction holds, rather than H2's default 1 s, so a busy scheduler
   * does not turn into failed cancels.
   */
  private static final String H2_OPTIONS = ";DB_CLOSE_ON_EXIT=FALSE;LOCK_TIMEOUT=10000";

  public JobStoreSettings {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:h2:") && !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "jobStore.jdbcUrl must be an H2 (jdbc:h2:) or PostgreSQL (jdbc:postgresql:) URL");
    }
    if (maximumPoolSize < 2) {
      throw new IllegalArgumentException(
          "jobStore.maximumPoolSize cannot be less than 2, was " + maximumPoolSize);
    }
    Objects.requireNonNull(connectionTimeout, "connectionTimeout");
  }

  /** Settings that wait {@link #DEFAULT_CONNECTION_TIMEOUT} for a connection. */
  public JobStoreSettings(String jdbcUrl, String user, String password, int maximumPoolSize) {
    this(jdbcUrl, user, password, maximumPoolSize, DEFAULT_CONNECTION_TIMEOUT);
  }

  /** The same store, its callers waiting at most {@code timeout} for a connection. */
  public JobStoreSettings withConnectionTimeout(Duration timeout) {
    return new JobStoreSettings(jdbcUrl, user, password, maximumPoolSize, timeout);
  }

  /**
   * An H2 database in files next to {@code base} ({@code base.mv.db}), created if absent.
   *
   * <p>Opened through H2's {@code retry:} file system: cancelling a job interrupts its staging
   * thread, and an interrupt that lands while that thread writes a transition closes a plain file
   * channel, which makes H2 close the whole job store for every later request. {@code retry:}
   * reopens the file and repeats the write instead (and clears the interrupt; the cancel is
   * recorded in the store all the same, so the staging thread's next transition fails and it stops
   * there).
   */
  public static JobStoreSettings h2File(Path base) {
    return new JobStoreSettings(
        "jdbc:h2:retry:file:" + base.toAbsolutePath() + H2_OPTIONS, "gantry", "", 4);
  }

  @Override
  public String toString() {
    return "JobStoreSettings[jdbcUrl="
        + jdbcUrl
        + ", user="
        + user
        + ", maximumPoolSize="
        + maximumPoolSize
        + ", connectionTimeout="
        + connectionTimeout
        + "]";
  }
}
