package io.gantry.server.internal.h2;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.h2.engine.Session;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.RandomAccessStore;
import org.h2.mvstore.db.Store;

/**
 * Points an embedded H2 file's header at the last chunk written, so that a commit synced to disk is
 * found again when the file is opened after a crash.
 *
 * <p>Why: H2's MVStore (2.5.252) finds the newest data after a crash from the file header: it reads
 * the chunk the header names, then follows each chunk's {@code next}, the place H2 predicted for
 * the chunk after it (or finds a chunk at the file's very end). When a commit's chunk goes into
 * reused space other than the predicted place, H2 rewrites the header, but with the chunk before it
 * ({@code FileStore.storeBuffer} sets {@code lastChunk} only after {@code
 * RandomAccessStore.writeChunk} wrote the header), and that chunk's prediction does not lead to the
 * new one. The commit, and those chained after it until the header is written again (up to 20
 * versions), are in the file and fsynced, yet a reopened store does not see them: {@code CHECKPOINT
 * SYNC} alone loses acknowledged writes at a {@code kill -9}. Measured apart from Gantry (a copy of
 * the file taken after each synced commit, opened as a crash would leave it): 71 of 200 commits
 * lost once space was reused; none of 300 with the header written here before each sync
 * (docs/reliability.md).
 *
 * <p>H2 has no public call that writes the header, so this one calls its private {@code
 * writeStoreHeader} under the lock H2's own writes hold ({@code saveChunkLock}). Resolved once at
 * start-up ({@link #check}): an H2 release without them stops the server there, with this reason,
 * instead of silently losing writes.
 *
 * <p>Two callers: the H2 job store ({@code Transactor}, before its {@code CHECKPOINT SYNC}) and
 * stage-out into an H2 file data source ({@link H2FileSync}, after the step's commit).
 */
public final class H2FileHeader {
  private static final Field SAVE_CHUNK_LOCK;
  private static final Method WRITE_STORE_HEADER;
  private static final String MISSING;

  static {
    Field lock = null;
    Method write = null;
    String missing = null;
    try {
      lock = FileStore.class.getDeclaredField("saveChunkLock");
      lock.setAccessible(true);
      write = RandomAccessStore.class.getDeclaredMethod("writeStoreHeader");
      write.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      missing = e.toString();
    }
    SAVE_CHUNK_LOCK = lock;
    WRITE_STORE_HEADER = write;
    MISSING = missing;
  }

  private H2FileHeader() {}

  /**
   * Refuses an H2 release whose internals this class cannot reach: found out when the store opens,
   * not at the first crash.
   */
  public static void check() {
    if (MISSING != null) {
      throw new IllegalStateException(
          "this H2 release cannot have its file header written after a commit (needed so that a"
              + " synced commit survives a crash; see H2FileHeader): "
              + MISSING);
    }
  }

  /**
   * Writes the header of the store behind {@code connection} to name the last chunk written, if it
   * is an embedded H2 file (a server's H2, or one in memory, is left alone). The caller fsyncs
   * afterwards ({@code CHECKPOINT SYNC}), which makes the header durable with the chunks.
   */
  public static void pointAtLastChunk(Connection connection) throws SQLException {
    Optional<Store> store = embeddedStore(connection);
    if (store.isEmpty()) {
      return;
    }
    pointAtLastChunk(store.get().getMvStore().getFileStore());
  }

  /** The same for a store already in hand ({@link H2FileSync}); in memory (null): nothing. */
  static void pointAtLastChunk(FileStore<?> store) throws SQLException {
    if (!(store instanceof RandomAccessStore file)) {
      return;
    }
    try {
      check();
    } catch (IllegalStateException e) {
      throw new SQLException(e.getMessage(), e);
    }
    try {
      ReentrantLock lock = (ReentrantLock) SAVE_CHUNK_LOCK.get(file);
      lock.lock();
      try {
        if (file.isReadOnly()) {
          return;
        }
        WRITE_STORE_HEADER.invoke(file);
      } finally {
        lock.unlock();
      }
    } catch (IllegalAccessException e) {
      throw new SQLException("could not write the H2 file header: " + e, e);
    } catch (InvocationTargetException e) {
      throw new SQLException("could not write the H2 file header: " + e.getCause(), e.getCause());
    }
  }

  /**
   * The store of the H2 database behind {@code connection} if this JVM has it open (an embedded
   * database, in a file or in memory); empty for another database or an H2 server elsewhere.
   */
  static Optional<Store> embeddedStore(Connection connection) throws SQLException {
    if (!connection.isWrapperFor(JdbcConnection.class)) {
      return Optional.empty();
    }
    Session session = connection.unwrap(JdbcConnection.class).getSession();
    if (!(session instanceof SessionLocal local)) {
      return Optional.empty();
    }
    return Optional.ofNullable(local.getDatabase().getStore());
  }
}
