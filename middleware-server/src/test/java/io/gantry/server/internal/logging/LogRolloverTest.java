package io.gantry.server.internal.logging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.gantry.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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
    assertTrue(total <= 3 * KIB, "archives take " + total + " bytes, more than the cap");
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

  /** {@code lines} lines of random text through a context set up as the server sets its own. */
  private static void writeLines(ServerConfig.Logging settings, int lines) {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter()); // as SLF4J's provider gives its own
    context.start();
    LogbackOutputs.apply(context, settings);
    Logger logger = context.getLogger("io.gantry.test");
    for (int i = 0; i < lines; i++) {
      logger.info("line {} {}{}", i, UUID.randomUUID(), UUID.randomUUID());
    }
    context.stop(); // waits for the last compression and clean-up
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
