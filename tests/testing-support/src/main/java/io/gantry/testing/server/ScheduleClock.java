package io.gantry.testing.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;

/**
 * The clock a test server's schedules read ({@code schedules.test-clock-file}): a file holding one
 * instant, owner-writable only (the server refuses others), replaced atomically so the server never
 * reads half a line. Give it to {@link GantryTestServerBuilder#scheduleClock}.
 */
public final class ScheduleClock {
  private final Path file;

  private ScheduleClock(Path file) {
    this.file = file;
  }

  /** A clock file in {@code dir}, set to {@code now}. */
  public static ScheduleClock at(Path dir, Instant now) {
    ScheduleClock clock = new ScheduleClock(dir.resolve("schedule-clock"));
    clock.set(now);
    return clock;
  }

  public Path file() {
    return file;
  }

  /** Moves the schedules' time to {@code now} (forwards or back). */
  public void set(Instant now) {
    try {
      Path next = Files.createTempFile(file.getParent(), "schedule-clock", ".tmp");
      Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rw-------"));
      Files.writeString(next, now.toString());
      Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set the schedule clock " + file, e);
    }
  }
}
