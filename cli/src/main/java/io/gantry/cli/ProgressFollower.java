package io.gantry.cli;

import io.gantry.cli.soap.JobFileChunk;
import io.gantry.cli.soap.JobNotFoundFault;
import io.gantry.jsdl.JobProgress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads a job's progress file ({@link JobProgress#FILE}, docs/live-results.md) and prints its last
 * checkpoint each time a new one appears: how much is done and every figure with its standard error
 * and relative standard error. The same for every program that publishes one.
 */
final class ProgressFollower {
  private final ServerConnection server;
  private final String jobId;
  private byte[] lastBytes = new byte[0];
  private long lastDone = -1;
  private String problem;

  ProgressFollower(ServerConnection server, String jobId) {
    this.server = server;
    this.jobId = jobId;
  }

  /** Prints the last checkpoint if it is new; returns whether something was printed. */
  boolean printIfChanged(PrintWriter out) {
    byte[] bytes = read();
    if (bytes == null || Arrays.equals(bytes, lastBytes)) {
      return false;
    }
    lastBytes = bytes;
    JobProgress progress;
    try {
      progress =
          JobProgress.parse(
              new StringReader(new String(bytes, StandardCharsets.UTF_8)), JobProgress.FILE);
      problem = null;
    } catch (JobProgress.FormatException | IOException e) {
      problem = e.getMessage(); // maybe read across a replacement: the next poll reads it again
      lastBytes = new byte[0];
      return false;
    }
    if (progress.latest().isEmpty() || progress.latest().get().done() == lastDone) {
      return false;
    }
    JobProgress.Checkpoint c = progress.latest().get();
    lastDone = c.done();
    print(out, c);
    return true;
  }

  /** Why the last file read could not be shown, or null. */
  String problem() {
    return problem;
  }

  static void print(PrintWriter out, JobProgress.Checkpoint c) {
    StringBuilder line = new StringBuilder("progress: ").append(c.done());
    if (c.total().isPresent()) {
      long total = c.total().getAsLong();
      line.append(" of ").append(total);
      if (!c.unit().isEmpty()) {
        line.append(' ').append(c.unit());
      }
      if (total > 0) {
        line.append(String.format(Locale.ROOT, " (%.0f%%)", 100.0 * c.done() / total));
      }
    } else if (!c.unit().isEmpty()) {
      line.append(' ').append(c.unit());
    }
    out.println(line);
    if (!c.figures().isEmpty()) {
      TextTable table = new TextTable("FIGURE", "VALUE", "STDERR", "RSE");
      for (JobProgress.Figure f : c.figures()) {
        table.row(
            f.name(),
            number(f.value()),
            f.stderr().isPresent() ? number(f.stderr().getAsDouble()) : "",
            f.stderr().isPresent() && f.value() != 0
                ? String.format(
                    Locale.ROOT, "%.2f%%", 100 * Math.abs(f.stderr().getAsDouble() / f.value()))
                : "");
      }
      table.print(out);
    }
    out.flush();
  }

  private static String number(double v) {
    return String.format(Locale.ROOT, "%.6g", v);
  }

  /** The file's bytes now, or null when it is not there (yet). */
  private byte[] read() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long offset = 0;
    while (offset < JobProgress.MAX_BYTES) {
      long from = offset;
      JobFileChunk chunk =
          server.call(
              s -> {
                try {
                  return s.getJobFile(jobId, JobProgress.FILE, from, OutputFollower.CHUNK_BYTES);
                } catch (JobNotFoundFault e) {
                  return null; // no progress file (yet): the job itself was found before
                }
              });
      if (chunk == null) {
        return null;
      }
      byte[] data = chunk.getData() == null ? new byte[0] : chunk.getData();
      bytes.write(data, 0, data.length);
      offset = chunk.getNextOffset();
      if (data.length == 0 || offset >= chunk.getSize()) {
        return bytes.toByteArray();
      }
    }
    problem = JobProgress.FILE + " is larger than " + JobProgress.MAX_BYTES + " bytes";
    return null;
  }
}
