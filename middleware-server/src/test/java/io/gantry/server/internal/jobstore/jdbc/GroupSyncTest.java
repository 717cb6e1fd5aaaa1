package io.gantry.server.internal.jobstore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GroupSyncTest {

  @Test
  void aWriterAloneRunsASyncForEachCommit() throws Exception {
    GroupSync group = new GroupSync();
    AtomicInteger syncs = new AtomicInteger();
    group.awaitDurable(group.ticket(), syncs::incrementAndGet);
    group.awaitDurable(group.ticket(), syncs::incrementAndGet);
    assertEquals(2, syncs.get(), "a sync that ran before a commit does not cover it");
  }

  @Test
  void writersCommittingWhileASyncRunsShareTheNextOne() throws Exception {
    int writers = 16;
    GroupSync group = new GroupSync();
    AtomicInteger ticketsTaken = new AtomicInteger();
    CountDownLatch allTaken = new CountDownLatch(writers);
    AtomicInteger syncs = new AtomicInteger();
    // the first sync holds until every writer has committed: all of them wait behind it
    GroupSync.Sync sync =
        () -> {
          syncs.incrementAndGet();
          try {
            assertTrue(allTaken.await(30, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            throw new SQLException(e);
          }
        };
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        done.add(
            pool.submit(
                () -> {
                  long ticket = group.ticket();
                  ticketsTaken.incrementAndGet();
                  allTaken.countDown();
                  group.awaitDurable(ticket, sync);
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(writers, ticketsTaken.get());
    assertTrue(
        syncs.get() <= 2, "16 commits, " + syncs.get() + " syncs: the first, and one for the rest");
  }

  @Test
  void aFailedSyncMakesNothingDurableSoTheWriterFailsAndTheNextSyncCoversIt() throws Exception {
    GroupSync group = new GroupSync();
    long ticket = group.ticket();
    assertThrows(
        SQLException.class,
        () ->
            group.awaitDurable(
                ticket,
                () -> {
                  throw new SQLException("disk full");
                }));
    AtomicInteger syncs = new AtomicInteger();
    group.awaitDurable(ticket, syncs::incrementAndGet);
    assertEquals(1, syncs.get());
  }
}
