package io.gantry.server.internal.jobstore.jdbc;

import io.gantry.server.internal.h2.H2FileHeader;
import io.gantry.server.internal.jobstore.JobStoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/**
 * Runs units of work in one transaction each and makes writes durable before returning.
 *
 * <p>PostgreSQL has the write-ahead log on disk at commit. H2's MVStore does not: by default a
 * commit is written out by a background thread up to WRITE_DELAY (500 ms) later, so a crash right
 * after "committed" could lose a transition the server already acted on. Two things close that on
 * H2:
 *
 * <ol>
 *   <li>WRITE_DELAY 0 (set once the store is open; a persistent setting of the database): every
 *       commit writes its chunk to the file before it returns, and H2's background writer is
 *       stopped. With the writer running, {@code CHECKPOINT SYNC} could return before a commit was
 *       in the file at all: the writer had taken the commit's changes into a chunk it was still
 *       writing asynchronously, so the checkpoint found nothing unsaved (or another store in
 *       progress) and only fsynced the file as it was. A {@code kill -9} then lost writes that had
 *       been acknowledged: schedules added, a time claimed, a job submitted (FaultAtEveryStepTest,
 *       docs/reliability.md). H2 2.5's {@code MVStore.commit} and {@code FileStore.storeIt} show
 *       the skip and the asynchronous write; a halted JVM lost rows acknowledged 100-300 ms apart
 *       together, so the writer's chunks may also be dropped when the file is opened again. Without
 *       the writer none was lost there; FaultAtEveryStepTest still lost writes once at load ~45:
 *       the second cause, the header (next item).
 *   <li>After each H2 write, {@code CHECKPOINT SYNC} (an fsync of the file) before the write
 *       returns, so a commit also survives the machine's crash. Concurrent writers share one sync
 *       ({@link GroupSync}): H2 runs syncs one at a time, and a sync per write made many clients
 *       submitting at once queue behind each other. Before it, the file's header is made to name
 *       the last chunk written ({@link H2FileHeader}): H2 can leave it naming an earlier chunk from
 *       which the synced commit is not found after a crash.
 * </ol>
 *
 * <p>Lazy writes ({@link #writeLazily}) are written to the file at commit too, but not fsynced.
 */
public final class Transactor {

  /** Work on a connection; may throw SQLException, which aborts the transaction. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;
  private final boolean syncAfterCommit;
  private final GroupSync groupSync = new GroupSync();
  private final List<Runnable> afterWrite = new CopyOnWriteArrayList<>();

  public Transactor(DataSource dataSource) {
    this.dataSource = dataSource;
    this.syncAfterCommit = isH2(dataSource);
  }

  public <T> T read(String what, Work<T> work) {
    return inTransaction(what, work, false);
  }

  /** A write the caller will act on: durable when this returns. */
  public <T> T write(String what, Work<T> work) {
    T result = inTransaction(what, work, true);
    afterWrite.forEach(Runnable::run);
    return result;
  }

  /**
   * Runs {@code listener} after every durable write has committed, on the writer's thread (it must
   * be quick and not throw): the notification outbox's wake-up, since such a write may have added
   * events to it, and the requests waiting for a job's end. Returns what removes it again.
   */
  public Runnable afterWrite(Runnable listener) {
    afterWrite.add(listener);
    return () -> afterWrite.remove(listener);
  }

  /**
   * A write whose loss in a crash harms nobody (progress text): committed, but on H2 not fsynced,
   * so frequent progress updates cost no fsync each.
   */
  public <T> T writeLazily(String what, Work<T> work) {
    return inTransaction(what, work, false);
  }

  private <T> T inTransaction(String what, Work<T> work, boolean durable) {
    T result;
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        result = work.run(c);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new JobStoreException("job store: could not " + what + ": " + e.getMessage(), e);
    }
    if (durable && syncAfterCommit) {
      // The connection is back in the pool while this writer waits, so a group is not limited
      // to the pool's size, and a sync needs only one connection of its own.
      try {
        groupSync.awaitDurable(groupSync.ticket(), this::checkpointSync);
      } catch (SQLException e) {
        throw new JobStoreException(
            "job store: could not sync to disk after "
                + what
                + " (committed, but a crash now could lose it): "
                + e.getMessage(),
            e);
      }
    }
    return result;
  }

  private void checkpointSync() throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      // before the fsync, so one fsync makes the header durable with the chunks it names
      H2FileHeader.pointAtLastChunk(c);
      s.execute("CHECKPOINT SYNC");
    }
  }

  /**
   * On H2, also turns the write delay off (see the class comment) and proves that the user may do
   * that and run CHECKPOINT (admin rights): found out at start-up, not as an error after a
   * transition has already committed.
   */
  private static boolean isH2(DataSource dataSource) {
    boolean h2;
    try (Connection c = dataSource.getConnection()) {
      h2 = "H2".equals(c.getMetaData().getDatabaseProductName());
      if (h2) {
        try {
          H2FileHeader.check();
        } catch (IllegalStateException e) {
          throw new JobStoreException("job store: " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement()) {
          s.execute("SET WRITE_DELAY 0");
          s.execute("CHECKPOINT SYNC");
        } catch (SQLException e) {
          throw new JobStoreException(
              "job store: the H2 user needs admin rights, so that every transition is written at"
                  + " commit (SET WRITE_DELAY 0) and synced to disk (CHECKPOINT SYNC): "
                  + e.getMessage(),
              e);
        }
      }
    } catch (SQLException e) {
      throw new JobStoreException("job store: cannot reach the database: " + e.getMessage(), e);
    }
    return h2;
  }
}
