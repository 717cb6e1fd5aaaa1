package io.gantry.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.opentest4j.AssertionFailedError;

/**
 * The one way tests wait for something that happens in another thread or process: poll a condition
 * until it holds, or fail the test with what was awaited, for how long, and the last value seen.
 *
 * <p>Every timeout is multiplied by one scale, {@value #SCALE_PROPERTY} (system property) or
 * {@value #SCALE_VARIABLE} (environment), 1 by default: a slow or loaded machine (a CI runner
 * shared by several builds) raises it once instead of every test raising its own limits. Timeouts
 * are limits, never expectations: a test never asserts that something took less than one.
 *
 * <pre>{@code
 * Await.until("the job directory is removed", Duration.ofSeconds(30), () -> !Files.exists(dir));
 * JobStatusInfo s = Await.value("job " + id + " to finish", Duration.ofMinutes(2),
 *     () -> client.getJobStatus(id), st -> st.state.isFinal());
 * }</pre>
 */
public final class Await {
  public static final String SCALE_PROPERTY = "gantry.test.timeout-scale";
  public static final String SCALE_VARIABLE = "GANTRY_TEST_TIMEOUT_SCALE";

  // The first polls come quickly (most conditions hold within milliseconds); later ones back off
  // so a long wait does not busy a machine whose two cores also run the thing awaited.
  private static final long FIRST_POLL_MILLIS = 10;
  private static final long MAX_POLL_MILLIS = 200;

  /** A probe that may throw: a SOAP call, a file read. Its exceptions end the wait and the test. */
  @FunctionalInterface
  public interface Probe<T> {
    T get() throws Exception;
  }

  private Await() {}

  /** The timeout scale of this run (positive; 1 unless set). */
  public static double scale() {
    String text =
        Optional.ofNullable(System.getProperty(SCALE_PROPERTY))
            .orElse(System.getenv(SCALE_VARIABLE));
    if (text == null || text.isBlank()) {
      return 1;
    }
    try {
      double scale = Double.parseDouble(text.strip());
      if (scale > 0 && Double.isFinite(scale)) {
        return scale;
      }
    } catch (NumberFormatException e) {
      // reported below, with the name of the setting
    }
    throw new IllegalStateException(
        SCALE_PROPERTY + " / " + SCALE_VARIABLE + " must be a positive number, got '" + text + "'");
  }

  /** {@code timeout} multiplied by the scale of this run. */
  public static Duration scaled(Duration timeout) {
    return Duration.ofNanos((long) (timeout.toNanos() * scale()));
  }

  /** Polls {@code condition} until it is true; fails the test after {@code timeout} (scaled). */
  public static void until(String what, Duration timeout, Probe<Boolean> condition) {
    value(what, timeout, condition, Boolean::booleanValue);
  }

  /**
   * Polls {@code probe} until its value passes {@code done}, and returns that value; fails the test
   * after {@code timeout} (scaled), naming {@code what} and the last value seen.
   */
  public static <T> T value(
      String what, Duration timeout, Probe<T> probe, Predicate<? super T> done) {
    return value(what, timeout, probe, done, String::valueOf);
  }

  /**
   * As {@link #value(String, Duration, Probe, Predicate)}, describing the last value with {@code
   * shown}.
   */
  public static <T> T value(
      String what,
      Duration timeout,
      Probe<T> probe,
      Predicate<? super T> done,
      Function<? super T, String> shown) {
    Duration limit = scaled(timeout);
    long start = System.nanoTime();
    long pause = FIRST_POLL_MILLIS;
    while (true) {
      T seen = get(what, probe);
      if (done.test(seen)) {
        return seen;
      }
      long waited = System.nanoTime() - start;
      if (waited > limit.toNanos()) {
        throw new AssertionFailedError(
            String.format(
                Locale.ROOT,
                "waited %.1f s for %s (timeout %s x scale %s); last seen: %s",
                waited / 1e9,
                what,
                timeout,
                scale(),
                shown.apply(seen)));
      }
      sleep(what, pause);
      pause = Math.min(MAX_POLL_MILLIS, pause * 2);
    }
  }

  /**
   * Waits until {@code file} exists and contains {@code text} (a job's output, a "started" marker);
   * returns its content. A file being written may be read part-way: it is read again.
   */
  public static String fileContaining(Path file, String text, Duration timeout) {
    return value(
        file + " to contain '" + text + "'",
        timeout,
        () -> readIfPresent(file),
        content -> content.contains(text),
        content -> "'" + content + "'");
  }

  private static String readIfPresent(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return ""; // removed or being replaced meanwhile: read again next time
    }
  }

  private static <T> T get(String what, Probe<T> probe) {
    try {
      return probe.get();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    } catch (Exception e) {
      throw new IllegalStateException("while waiting for " + what + ": " + e, e);
    }
  }

  private static void sleep(String what, long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    }
  }
}
