package io.gantry.server.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The waits behind waitForJob: woken by writes, bounded in number and length, ended at close. */
class JobWaitsTest {
  private static final Duration LIMIT = Duration.ofSeconds(30);
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger state = new AtomicInteger();
  private final AtomicInteger reads = new AtomicInteger();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  private int read() {
    reads.incrementAndGet();
    return state.get();
  }

  @Test
  void aWaitReadsAgainAfterEachWriteAndAnswersWhenDone() throws Exception {
    JobWaits waits = new JobWaits(4, Duration.ofSeconds(20));
    Future<Integer> waiting =
        threads.submit(() -> waits.await(Duration.ofSeconds(20), this::read, s -> s == 2));
    Await.until("the wait has begun", LIMIT, () -> waits.waiting() == 1);
    int readsBefore = reads.get();
    state.set(1);
    waits.changed(); // a write that does not end the wait: read again, wait on
    Await.until("the wait read again", LIMIT, () -> reads.get() > readsBefore);
    assertEquals(1, waits.waiting());
    state.set(2);
    waits.changed();
    assertEquals(2, waiting.get(LIMIT.toSeconds(), TimeUnit.SECONDS));
    assertEquals(0, waits.waiting());
  }

  @Test
  void aWriteBetweenTheReadAndTheWaitIsNotMissed() throws Exception {
    JobWaits waits = new JobWaits(4, Duration.ofSeconds(20));
    // the job ends (and the store's write is announced) while the waiter is reading it
    Integer answer =
        waits.await(
            Duration.ofSeconds(20),
            () -> {
              int seen = read();
              if (reads.get() == 1) {
                state.set(2);
                waits.changed();
              }
              return seen;
            },
            s -> s == 2);
    assertEquals(2, answer);
  }

  @Test
  void beyondTheLimitAWaitAnswersAtOnce() throws Exception {
    JobWaits waits = new JobWaits(1, Duration.ofSeconds(20));
    Future<Integer> first =
        threads.submit(() -> waits.await(Duration.ofSeconds(20), this::read, s -> s == 2));
    Await.until("the first wait has begun", LIMIT, () -> waits.waiting() == 1);
    long before = System.nanoTime();
    assertEquals(0, waits.await(Duration.ofSeconds(20), this::read, s -> s == 2));
    assertTrue(System.nanoTime() - before < Duration.ofSeconds(10).toNanos(), "answered at once");
    waits.close(); // the server stops: the first wait ends too, with what it read last
    assertEquals(0, first.get(LIMIT.toSeconds(), TimeUnit.SECONDS));
    assertEquals(0, waits.await(Duration.ofSeconds(20), this::read, s -> s == 2), "after close");
  }

  @Test
  void aWaitLastsItsTimeAtMostAndNeverLongerThanTheLongest() {
    JobWaits waits = new JobWaits(4, Duration.ofMillis(300));
    long before = System.nanoTime();
    assertEquals(0, waits.await(Duration.ofSeconds(60), this::read, s -> s == 2));
    long took = System.nanoTime() - before;
    assertTrue(took >= Duration.ofMillis(290).toNanos(), "waited: " + took);
    assertTrue(took < Duration.ofSeconds(30).toNanos(), "shortened to the longest: " + took);
    assertEquals(0, waits.await(Duration.ZERO, this::read, s -> s == 2), "0: at once");
    assertEquals(0, waits.waiting());
  }
}
