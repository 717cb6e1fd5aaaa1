package io.gantry.server.internal.logging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import io.gantry.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * The log file's rollover and retention settings, applied as the server applies them, to a Logback
 * context of the test's own (the test JVM's log stays as it is): the file rolls over at {@code
 * log.max-file-size} into gzip archives, {@code log.total-size-cap} removes the oldest archives,
 * {@code log.max-history} the archives of older days.
 */
class LogRolloverTest {
  private static final long KIB = 1024;

  @TempDir Path dir;

  @Test
  void theFileRollsOverAtItsSizeAndTheOldestArchivesGoAtTheTotalCap() throws Exception {
    Path file = dir.resolve("gantry.log");
    // random text compresses little: each archive stays near the file size
    writeLines(new ServerConfig.Logging("off", Optional.of(file), "json", KIB, 30, 3 * KIB), 200);

    List<Path> archives = archives(file);
    int highest = archives.stream().mapToInt(LogRolloverTest::index).max().orElse(-1);
    assertTrue(highest >= 10, "rolled over about every 1 KiB: " + archives);
    assertTrue(
        archives.size() < highest + 1,
        "the oldest archives were removed at the cap (highest index " + highest + "): " + archives);
    long total = 0;
    for (Path archive : archives) {
      total += Files.size(archive);
    }
    // the cap is checked while the newest archive is being compressed: it may pass by that one
    assertTrue(total <= 3 * KIB + KIB, "archives take " + total + " bytes, more than the cap");
    assertTrue(Files.size(file) <= KIB + 512, "the live file stays near its limit");
  }

  @Test
  void archivesOfDaysBeyondTheKeptOnesAreRemoved() throws Exception {
    Path file = dir.resolve("gantry.log");
    LocalDate today = LocalDate.now(ZoneId.systemDefault()); // as Logback names its files
    Path old = dir.resolve("gantry.log." + today.minusDays(5) + ".0.gz");
    Path kept = dir.resolve("gantry.log." + today.minusDays(1) + ".0.gz");
    Files.write(old, new byte[] {1});
    Files.write(kept, new byte[] {1});

    writeLines(new ServerConfig.Logging("off", Optional.of(file), "text", KIB, 3, 1024 * KIB), 20);

    assertFalse(Files.exists(old), "an archive of 5 days ago outlived log.max-history=3");
    assertTrue(Files.exists(kept), "yesterday's archive is within log.max-history=3");
    assertFalse(
        archives(file).stream()
            .filter(a -> a.toString().contains(today.toString()))
            .toList()
            .isEmpty(),
        "today's rollover happened");
  }

  /**
   * {@code lines} lines of random text through a context set up as the server sets its own, each
   * written once the last rollover's compression and clean-up are done. A server rolls over at most
   * every few minutes; this test every few lines, and Logback's clean-ups, run in parallel, would
   * otherwise race each other and may remove every archive under load.
   */
  private static void writeLines(ServerConfig.Logging settings, int lines)
      throws InterruptedException {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter()); // as SLF4J's provider gives its own
    context.start();
    RolloverSteps steps = new RolloverSteps();
    context.getStatusManager().add(steps);
    LogbackOutputs.apply(context, settings);
    Logger logger = context.getLogger("io.gantry.test");
    for (int i = 0; i < lines; i++) {
      logger.info("line {} {}{}", i, UUID.randomUUID(), UUID.randomUUID());
      steps.awaitSettled();
    }
    context.stop(); // waits for the last compression and clean-up
  }

  /** Counts rollovers and the compressions and clean-ups they start, from Logback's statuses. */
  private static final class RolloverSteps implements StatusListener {
    private final AtomicInteger rollovers = new AtomicInteger();
    private final AtomicInteger compressed = new AtomicInteger();
    private final AtomicInteger cleaned = new AtomicInteger();

    @Override
    public void addStatusEvent(Status status) {
      String message = status.getMessage();
      if (message.startsWith("Renaming file")) {
        rollovers.incrementAndGet();
      } else if (message.startsWith("Done GZ compressing")) {
        compressed.incrementAndGet();
      } else if (message.startsWith("No removal attempts were made on account of totalSizeCap")
          || (message.startsWith("Removed ") && message.contains("on account of totalSizeCap"))) {
        cleaned.incrementAndGet(); // the last words of each clean-up with a total size cap
      }
    }

    void awaitSettled() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (compressed.get() < rollovers.get() || cleaned.get() < rollovers.get()) {
        assertTrue(System.nanoTime() < deadline, "a rollover's compression or clean-up hung");
        Thread.sleep(1);
      }
    }
  }

  private static final Pattern ARCHIVE =
      Pattern.compile("gantry\\.log\\.\\d{4}-\\d\\d-\\d\\d\\.(\\d+)\\.gz");

  private static List<Path> archives(Path file) throws IOException {
    try (Stream<Path> files = Files.list(file.getParent())) {
      return files
          .filter(f -> ARCHIVE.matcher(f.getFileName().toString()).matches())
          .sorted()
          .toList();
    }
  }

  private static int index(Path archive) {
    Matcher m = ARCHIVE.matcher(archive.getFileName().toString());
    assertTrue(m.matches());
    return Integer.parseInt(m.group(1));
  }
}
