package io.gantry.server.internal.service;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Requests that wait for a job to end ({@code waitForJob}) instead of asking again and again. A
 * client that polls {@code getJobStatus} learns of the end up to a poll interval late, and every
 * poll costs it and the server a whole SOAP call (on a machine of two cores, a client polling every
 * few milliseconds slowed the very job it waited for).
 *
 * <p>A waiting request reads its job, and reads it again after each durable write of the job store
 * ({@link #changed}, called after the commit: a job's end is such a write, so what the waiter then
 * reads is what any other caller would). It returns when the job is final or its time is up.
 *
 * <p>Each wait holds one of the server's request threads, so waits are bounded: at most {@link
 * #limit} at once over all users (beside each user's {@code limits.concurrent-requests-per-user},
 * which counts a wait like any call). A wait beyond that, or after {@link #close}, answers at once
 * with the job as it is, as {@code getJobStatus} would: the client asks again, as a polling client
 * does.
 */
public final class JobWaits implements AutoCloseable {
  /**
   * The longest one wait lasts: under the connection idle timeout ({@code http.idle-timeout}, 30 s
   * by default), so that no proxy or server cuts off a connection that is only waiting.
   */
  public static final Duration LONGEST = Duration.ofSeconds(20);

  /** Waits at once by default: a third of Jetty's 200 request threads at most. */
  public static final int DEFAULT_LIMIT = 64;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changedCondition = lock.newCondition();
  private final int limit;
  private final Duration longest;
  private long generation;
  private int waiting;
  private boolean closed;

  /**
   * @param limit waits at once, over all users
   * @param longest the longest one wait lasts; a longer request is shortened to this
   */
  public JobWaits(int limit, Duration longest) {
    if (limit < 0 || longest.isNegative()) {
      throw new IllegalArgumentException("a negative limit or wait: " + limit + ", " + longest);
    }
    this.limit = limit;
    this.longest = longest;
  }

  /** The job store committed a durable write: every waiter reads its job again. */
  public void changed() {
    lock.lock();
    try {
      generation++;
      changedCondition.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reads with {@code read} until {@code done} holds or {@code wait} (at most {@link #LONGEST}) has
   * passed, and returns the last thing read. Reads once and returns at once when {@code wait} is
   * zero or negative, when {@link #limit} waits are already waiting, or after {@link #close}.
   * Exceptions of {@code read} (the job is not the caller's, the store is out) propagate.
   */
  public <T> T await(Duration wait, Supplier<T> read, Predicate<T> done) {
    long before = generationNow();
    T current = read.get();
    if (done.test(current) || wait.isZero() || wait.isNegative() || !enter()) {
      return current;
    }
    try {
      long deadline = System.nanoTime() + min(wait, longest).toNanos();
      while (true) {
        if (!awaitChangeAfter(before, deadline)) {
          return current;
        }
        // noted before reading: a write committed after the read advances it past this value
        before = generationNow();
        current = read.get();
        if (done.test(current)) {
          return current;
        }
      }
    } finally {
      leave();
    }
  }

  /** Waits at once now; for the server's metrics and tests. */
  public int waiting() {
    lock.lock();
    try {
      return waiting;
    } finally {
      lock.unlock();
    }
  }

  /** Ends every wait now (the server stops) and makes later ones answer at once. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      changedCondition.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private long generationNow() {
    lock.lock();
    try {
      return generation;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Blocks until a write after {@code seen}; false when the deadline passed first, the server
   * stops, or the thread is interrupted (its flag is kept).
   */
  private boolean awaitChangeAfter(long seen, long deadline) {
    lock.lock();
    try {
      while (generation == seen && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          changedCondition.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return !closed;
    } finally {
      lock.unlock();
    }
  }

  private boolean enter() {
    lock.lock();
    try {
      if (closed || waiting >= limit) {
        return false;
      }
      waiting++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void leave() {
    lock.lock();
    try {
      waiting--;
    } finally {
      lock.unlock();
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
