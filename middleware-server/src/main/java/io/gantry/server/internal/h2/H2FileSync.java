package io.gantry.server.internal.h2;

import io.gantry.staging.DurableCommit;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.db.Store;

/**
 * Makes a stage-out commit into an H2 file data source durable before the job is reported done: the
 * staging gateway runs it after each stage-out step's commit ({@link DurableCommit}).
 *
 * <p>Why: the data source is an embedded H2 file opened inside the server's JVM, so a {@code kill
 * -9} of the server is a crash of that database, and H2's commit alone does not survive one for the
 * two reasons the job store met (docs/reliability.md): the commit is not fsynced, and once freed
 * space in the file is reused the file header can name a chunk from which the commit is not found
 * on reopening ({@link H2FileHeader}). Without this, {@code StageOutCrashTest} found 4 of 40
 * stage-outs reported done missing from the file as a crash left it (its database has WRITE_DELAY
 * 0, as the demo's has): a job recorded SUCCEEDED would then have no results.
 *
 * <p>So, in order, on the data source's own store (nothing for another database, an H2 server
 * elsewhere, or H2 in memory):
 *
 * <ol>
 *   <li>H2 writes what the commit left in memory (nothing where the database has WRITE_DELAY 0,
 *       whose commit writes its chunk before it returns);
 *   <li>the header is written to name the last chunk ({@link H2FileHeader});
 *   <li>the file is fsynced, covering the chunks and the header.
 * </ol>
 *
 * This is what the job store's {@code CHECKPOINT SYNC} does, with the header written in between,
 * but through H2's Java calls, not SQL: {@code CHECKPOINT} needs admin rights, and a stage-out
 * account should have none (the demo's has INSERT on the result tables only).
 */
public final class H2FileSync implements DurableCommit {

  @Override
  public void afterCommit(Connection connection) throws SQLException {
    Optional<Store> store = H2FileHeader.embeddedStore(connection);
    if (store.isEmpty()) {
      return;
    }
    MVStore mv = store.get().getMvStore();
    if (mv.getFileStore() == null || mv.isReadOnly()) {
      return;
    }
    try {
      store.get().flush();
      H2FileHeader.pointAtLastChunk(mv.getFileStore());
      mv.sync();
    } catch (RuntimeException e) { // H2's MVStoreException, DbException: a file that failed
      throw new SQLException("could not sync the H2 file: " + e.getMessage(), e);
    }
  }
}
