package io.gantry.server.internal.jobstore.jdbc;

import java.sql.SQLException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit for H2: one {@code CHECKPOINT SYNC} makes every transaction committed before it
 * started durable, so concurrent writers share one sync instead of queueing for one each (H2
 * serialises syncs on the database; with 32 SOAP clients each sync took turns of 10+ ms).
 *
 * <ol>
 *   <li>A writer commits, then takes a ticket: tickets number commits in the order they finished.
 *   <li>If no sync is running, the writer runs one, covering every ticket handed out before it
 *       started; otherwise it waits for the running one and checks again (a sync that started
 *       before its ticket does not cover it).
 *   <li>A writer returns only once a sync that started after its commit has finished: the same
 *       promise as a sync of its own. A failed sync advances nothing, and a waiter runs the next
 *       one.
 * </ol>
 */
final class GroupSync {
  /** Runs one sync of the whole database. */
  @FunctionalInterface
  interface Sync {
    void run() throws SQLException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long ticketsIssued;
  private long durableUpTo;
  private boolean syncing;

  /** Call right after a commit returned. */
  long ticket() {
    lock.lock();
    try {
      return ++ticketsIssued;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns once the commit holding {@code ticket} is on disk. Waits uninterruptibly: a staging
   * thread being cancelled must not return from a write it may already act on.
   */
  void awaitDurable(long ticket, Sync sync) throws SQLException {
    lock.lock();
    try {
      while (durableUpTo < ticket) {
        if (syncing) {
          changed.awaitUninterruptibly();
          continue;
        }
        runSync(sync);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called holding the lock; releases it while the sync runs. */
  private void runSync(Sync sync) throws SQLException {
    syncing = true;
    long covered = ticketsIssued;
    boolean done = false;
    lock.unlock();
    try {
      sync.run();
      done = true;
    } finally {
      lock.lock();
      syncing = false;
      if (done) {
        durableUpTo = Math.max(durableUpTo, covered);
      }
      changed.signalAll();
    }
  }
}
