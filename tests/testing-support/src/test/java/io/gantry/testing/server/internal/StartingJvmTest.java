package io.gantry.testing.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * A start that waits on nothing fails soon after its usual limit, one that keeps working is waited
 * for past it (up to four times), and what it was waiting for ends the wait at once.
 */
class StartingJvmTest {
  private static final Duration USUAL = Duration.ofSeconds(1);
  private static final Duration WINDOW = Duration.ofSeconds(2);
  private Process process;

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly().waitFor();
    }
  }

  @Test
  void aProcessThatUsesNoCpuFailsOnceTheUsualLimitAndOneWindowHavePassed() throws IOException {
    process = new ProcessBuilder(List.of("sleep", "60")).start();
    long start = System.nanoTime();
    AssertionFailedError failure = awaitFails("a sleeper", "asleep");
    double waited = (System.nanoTime() - start) / 1e9;
    assertTrue(waited < 4 * USUAL.toSeconds() * scaleOf(), "stopped as stalled: " + waited);
    assertTrue(failure.getMessage().contains("a sleeper"), failure.getMessage());
    assertTrue(failure.getMessage().contains("ms of CPU in the last 2 s"), failure.getMessage());
  }

  @Test
  void aProcessThatWorksIsWaitedForPastTheUsualLimitAndItsResultTaken() throws IOException {
    process = new ProcessBuilder(List.of("sh", "-c", "while :; do :; done")).start();
    long start = System.nanoTime();
    long readyAfter = USUAL.multipliedBy(2).toNanos() + WINDOW.toNanos();
    String seen =
        StartingJvm.await(
            "a worker",
            process,
            USUAL,
            () -> System.nanoTime() - start > readyAfter ? "ready" : "working",
            s -> s.equals("ready"),
            s -> s,
            WINDOW);
    assertEquals("ready", seen);
  }

  @Test
  void aProcessThatWorksForeverFailsAtFourTimesTheUsualLimit() throws IOException {
    process = new ProcessBuilder(List.of("sh", "-c", "while :; do :; done")).start();
    long start = System.nanoTime();
    AssertionFailedError failure = awaitFails("a spinner", "spinning");
    double waited = (System.nanoTime() - start) / 1e9;
    assertTrue(waited >= 4 * USUAL.toSeconds() * scaleOf(), "waited " + waited);
    assertTrue(failure.getMessage().contains("spinning"), failure.getMessage());
  }

  /** Waits for {@code process} to show what never comes; the failure that ends the wait. */
  private AssertionFailedError awaitFails(String what, String shown) {
    return assertThrows(
        AssertionFailedError.class,
        () -> StartingJvm.await(what, process, USUAL, () -> shown, s -> false, s -> s, WINDOW));
  }

  private static double scaleOf() {
    return io.gantry.testing.Await.scale();
  }
}
