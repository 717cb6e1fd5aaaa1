package io.gantry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class AwaitTest {
  @TempDir Path dir;

  @AfterEach
  void clearScale() {
    System.clearProperty(Await.SCALE_PROPERTY);
  }

  @Test
  void theFirstValueThatPassesIsReturned() {
    AtomicInteger polls = new AtomicInteger();
    assertEquals(
        3,
        Await.value("the third poll", Duration.ofSeconds(10), polls::incrementAndGet, n -> n >= 3));
  }

  @Test
  void aConditionThatNeverHoldsFailsNamingWhatWasAwaitedTheTimeoutAndTheLastValueSeen() {
    // the message names the scale: pinned, so that a run with GANTRY_TEST_TIMEOUT_SCALE set passes
    System.setProperty(Await.SCALE_PROPERTY, "1");
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class,
            () ->
                Await.value(
                    "the answer", Duration.ofMillis(100), () -> 41, n -> n == 42, n -> "n=" + n));
    assertTrue(
        e.getMessage().contains("for the answer (timeout PT0.1S x scale 1.0); last seen: n=41"),
        e.getMessage());
  }

  @Test
  void theScaleMultipliesEveryTimeout() {
    System.setProperty(Await.SCALE_PROPERTY, "2.5");
    assertEquals(Duration.ofSeconds(5), Await.scaled(Duration.ofSeconds(2)));
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class,
            () -> Await.until("never", Duration.ofMillis(40), () -> false));
    assertTrue(e.getMessage().contains("x scale 2.5"), e.getMessage());
  }

  @Test
  void aScaleThatIsNotAPositiveNumberIsRefusedNamingTheSetting() {
    for (String bad : new String[] {"0", "-1", "fast", "NaN"}) {
      System.setProperty(Await.SCALE_PROPERTY, bad);
      IllegalStateException e = assertThrows(IllegalStateException.class, Await::scale);
      assertTrue(
          e.getMessage().contains(Await.SCALE_PROPERTY) && e.getMessage().contains(bad),
          e.getMessage());
    }
  }

  @Test
  void anExceptionOfTheProbeEndsTheWaitWithWhatWasAwaited() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Await.until(
                    "a file",
                    Duration.ofSeconds(10),
                    () -> Files.readString(dir.resolve("missing")).isEmpty()));
    assertTrue(
        e.getMessage().startsWith("while waiting for a file: java.nio.file.NoSuchFileException"),
        e.getMessage());
  }

  @Test
  void aFileIsAwaitedUntilItContainsTheText() throws Exception {
    Path file = dir.resolve("stdout.txt");
    Thread writer =
        new Thread(
            () -> {
              try {
                Thread.sleep(50);
                Files.writeString(file, "starting\n");
                Thread.sleep(50);
                Files.writeString(file, "starting\nstarted\n");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    writer.start();
    assertEquals(
        "starting\nstarted\n", Await.fileContaining(file, "started\n", Duration.ofSeconds(10)));
    writer.join();
  }
}
