package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.JobOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the end of a job as its {@code gantry-stepd} recorded it
 * (node-programs/stepd/stepd_status.c writes it). Only a regular file of the server's own account,
 * writable by no one else, counts: the status directory is the server's, but a file that is not its
 * own was not written by a supervisor it started.
 */
final class StepdStatus {
  private static final String FORMAT = "gantry-stepd-status-1";
  private static final long MAX_BYTES = 4096;

  private StepdStatus() {}

  /** The outcome in {@code file}, or empty while there is none. */
  static Optional<JobOutcome> read(String jobId, Path file) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty();
    }
    Object owner = Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    Object self = Files.getAttribute(file.getParent(), "unix:uid", LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isRegularFile()
        || attributes.size() > MAX_BYTES
        || !owner.equals(self)
        || attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
        || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IOException(
          file + " is not a status file a job supervisor of this server wrote; it is ignored");
    }
    Map<String, String> values = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    if (!FORMAT.equals(values.get("format")) || !jobId.equals(values.get("job"))) {
      throw new IOException(file + " is not the status record of job " + jobId);
    }
    return Optional.of(
        new JobOutcome(
                jobId,
                (int) number(file, values, "exit_status"),
                "1".equals(values.get("wall_time_exceeded")),
                "1".equals(values.get("killed")),
                Instant.ofEpochMilli(number(file, values, "started_ms")),
                Instant.ofEpochMilli(number(file, values, "ended_ms")),
                (int) number(file, values, "stop_signal"))
            .withUsage(new JobOutcome.Usage(cpuTime(file, values), null)));
  }

  /** cpu_ms, which supervisors before it was recorded leave out, and -1 for unknown. */
  private static java.time.Duration cpuTime(Path file, Map<String, String> values)
      throws IOException {
    if (!values.containsKey("cpu_ms")) {
      return null;
    }
    long ms = number(file, values, "cpu_ms");
    return ms < 0 ? null : java.time.Duration.ofMillis(ms);
  }

  private static long number(Path file, Map<String, String> values, String key) throws IOException {
    String value = values.get(key);
    try {
      if (value != null) {
        return Long.parseLong(value);
      }
    } catch (NumberFormatException e) {
      throw new IOException(file + ": " + key + " is not a number: " + value, e);
    }
    throw new IOException(file + " has no " + key);
  }
}
