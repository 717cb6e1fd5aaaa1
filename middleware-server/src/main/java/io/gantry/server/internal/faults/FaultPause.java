package io.gantry.server.internal.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The pausing half of fault injection: at the points {@link #PROPERTY} names, the job's thread
 * waits until the test says go on, so that the test can take something away at that very step (a
 * data source's database) while the server lives (docs/reliability.md, "A fault at every step").
 *
 * <p>Each pause, by any job, takes the next number N from 1 and talks through the directory {@link
 * #DIRECTORY_PROPERTY} names: the server writes {@code paused-N} holding the point's name, then
 * waits for {@code resume-N} to exist (at most {@link #LIMIT}, then it goes on by itself, so a test
 * that died never leaves a server stuck). Read once, when the class loads; inert without the
 * property.
 */
public final class FaultPause {
  /** The JVM system property naming the points to pause at, separated by commas. */
  public static final String PROPERTY = "gantry.fault-injection.pause-at";

  /** The JVM system property naming the directory of the pauses' files (absolute, existing). */
  public static final String DIRECTORY_PROPERTY = "gantry.fault-injection.pause-dir";

  /** The longest a pause waits for the test. */
  static final Duration LIMIT = Duration.ofMinutes(2);

  private static final long POLL_MILLIS = 20;

  /** The point names to pause at: read once, judged by {@link #check}. */
  static final Set<String> ARMED =
      Arrays.stream(System.getProperty(PROPERTY, "").split(","))
          .map(String::strip)
          .filter(s -> !s.isEmpty())
          .collect(Collectors.toUnmodifiableSet());

  private static final AtomicInteger PAUSES = new AtomicInteger();

  private FaultPause() {}

  /**
   * Refuses a start whose pause directory is missing or relative while points are armed.
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  static Path check() {
    String dir = System.getProperty(DIRECTORY_PROPERTY, "");
    Path path = dir.isEmpty() ? null : Path.of(dir);
    if (path == null || !path.isAbsolute() || !Files.isDirectory(path)) {
      throw new IllegalArgumentException(
          PROPERTY
              + " needs "
              + DIRECTORY_PROPERTY
              + ", an existing absolute directory: '"
              + dir
              + "'");
    }
    return path;
  }

  /** Pauses the calling thread at {@code point} until the test writes its resume file. */
  static void pause(String point) {
    int n = PAUSES.incrementAndGet();
    Path dir = check();
    System.err.println("gantry-server: pausing at fault point " + point + " (" + n + ")");
    try {
      Path tmp = Files.writeString(dir.resolve(".paused-" + n), point);
      Files.move(tmp, dir.resolve("paused-" + n), StandardCopyOption.ATOMIC_MOVE);
      Path resume = dir.resolve("resume-" + n);
      long deadline = System.nanoTime() + LIMIT.toNanos();
      while (!Files.exists(resume) && System.nanoTime() < deadline) {
        Thread.sleep(POLL_MILLIS);
      }
    } catch (IOException e) {
      System.err.println("gantry-server: pause " + n + " at " + point + " not announced: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the job is being stopped: go on and let it see that
    }
  }
}
