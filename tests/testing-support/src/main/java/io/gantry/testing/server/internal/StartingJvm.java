package io.gantry.testing.server.internal;

import io.gantry.testing.Await;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import org.opentest4j.AssertionFailedError;

/**
 * Waiting for a JVM of ours to start (a server to listen, a user add to end), telling a starved
 * start from a hung one by the CPU the JVM uses. When scripts/test-all starts every test JVM of the
 * build at once beside the sanitizer build, the load is 20 and more on two cores: a server's main
 * thread was seen to get 6.5 s of CPU in 125 s, and the first server of a fork missed the two
 * minutes a start was given, twice in two runs, while it was loading classes. A wall-clock limit
 * alone cannot tell that from a hang; the CPU can: a JVM that waits on a lock or a peer uses next
 * to none.
 *
 * <p>So the wait fails when the usual limit has passed and the JVM used less than 1/{@value
 * #STALLED_SHARE_DIVISOR} of a core in the last {@link #WINDOW} (stuck), or at four times the usual
 * limit whatever it does (the machine is too slow for any test to mean anything).
 */
public final class StartingJvm {
  static final Duration WINDOW = Duration.ofSeconds(30);

  /** Less CPU than this share of one core over the window is stuck: 0.5 s in 30 s. */
  static final int STALLED_SHARE_DIVISOR = 60;

  private static final int HARD_LIMIT_FACTOR = 4;

  private StartingJvm() {}

  /** A sample of the JVM's CPU time (all its threads) at a moment. */
  private record Sample(long atNanos, long cpuNanos) {}

  /**
   * Polls {@code probe} until {@code done}; fails (AssertionFailedError, with {@code shown} of the
   * last value) as the class says.
   */
  public static <T> T await(
      String what,
      Process process,
      Duration timeout,
      Await.Probe<T> probe,
      Predicate<? super T> done,
      Function<? super T, String> shown) {
    return await(what, process, timeout, probe, done, shown, WINDOW);
  }

  static <T> T await(
      String what,
      Process process,
      Duration timeout,
      Await.Probe<T> probe,
      Predicate<? super T> done,
      Function<? super T, String> shown,
      Duration window) {
    Duration usual = Await.scaled(timeout);
    long start = System.nanoTime();
    Deque<Sample> samples = new ArrayDeque<>();
    long pause = 50;
    while (true) {
      T seen;
      try {
        seen = probe.get();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("while waiting for " + what, e);
      }
      if (done.test(seen)) {
        return seen;
      }
      long now = System.nanoTime();
      samples.addLast(new Sample(now, cpuNanos(process)));
      while (samples.size() > 2 && now - samples.peekFirst().atNanos() > window.toNanos() * 2) {
        samples.removeFirst();
      }
      long waited = now - start;
      if (waited > usual.toNanos()) {
        long usedInWindow = usedSince(samples, now - window.toNanos());
        boolean stalled =
            usedInWindow >= 0 && usedInWindow < window.toNanos() / STALLED_SHARE_DIVISOR;
        if (stalled || waited > usual.toNanos() * HARD_LIMIT_FACTOR) {
          throw new AssertionFailedError(
              String.format(
                  Locale.ROOT,
                  "waited %.1f s for %s (timeout %s x scale %s, longer while it works); it used"
                      + " %d ms of CPU in the last %d s; last seen: %s",
                  waited / 1e9,
                  what,
                  timeout,
                  Await.scale(),
                  usedInWindow / 1_000_000,
                  window.toSeconds(),
                  shown.apply(seen)));
        }
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
      pause = Math.min(500, pause * 2);
    }
  }

  /** CPU used since {@code sinceNanos}, or -1 while no sample is that old. */
  private static long usedSince(Deque<Sample> samples, long sinceNanos) {
    Sample before = null;
    for (Sample sample : samples) {
      if (sample.atNanos() <= sinceNanos) {
        before = sample;
      }
    }
    if (before == null || before.cpuNanos() < 0 || samples.peekLast().cpuNanos() < 0) {
      return -1;
    }
    return samples.peekLast().cpuNanos() - before.cpuNanos();
  }

  private static long cpuNanos(Process process) {
    return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }
}
