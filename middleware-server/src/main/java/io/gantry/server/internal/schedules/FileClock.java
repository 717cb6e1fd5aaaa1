package io.gantry.server.internal.schedules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;

/**
 * A clock read from a file holding one ISO-8601 instant: the schedules' clock when the setting
 * {@code schedules.test-clock-file} names one, so that tests move time instead of sleeping. The
 * configuration accepts it on a loopback listener only; here the file must be writable by its owner
 * alone, since whoever writes it decides when jobs start.
 */
public final class FileClock extends Clock {
  private final Path file;

  private FileClock(Path file) {
    this.file = file;
  }

  /**
   * @throws IllegalArgumentException when the file is missing, unreadable or writable by others
   */
  public static FileClock of(Path file) {
    try {
      Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
      if (mode.contains(PosixFilePermission.GROUP_WRITE)
          || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw new IllegalArgumentException(
            "schedules.test-clock-file " + file + " is writable by others; chmod go-w it");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "schedules.test-clock-file " + file + " cannot be read: " + e.getMessage(), e);
    }
    FileClock clock = new FileClock(file);
    clock.instant(); // refuse a file that holds no instant now, not at the first check
    return clock;
  }

  @Override
  public Instant instant() {
    String text;
    try {
      text = Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("the test clock " + file + " cannot be read", e);
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "the test clock "
              + file
              + " holds '"
              + text
              + "', not an instant like 2026-11-23T18:30:00Z",
          e);
    }
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the test clock has no zones");
  }
}
