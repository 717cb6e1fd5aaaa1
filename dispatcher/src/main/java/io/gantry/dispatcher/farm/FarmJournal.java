package io.gantry.dispatcher.farm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The append-only record of a farm's finished tasks, so that a restarted server resumes the farm
 * without running a finished task again.
 *
 * <p>One line per final task: {@code v1 TAB id TAB end TAB code TAB attempts TAB start-ms TAB
 * duration-us TAB base64(host) TAB base64(output) LF}. A server killed while writing leaves at most
 * one line without its LF: it is cut off when the journal is opened again (that task runs again).
 * Each batch of results is written with one {@code write} before the launchers that sent them get
 * their next task, so a server process that dies loses nothing the page cache holds; {@link
 * #sync()} forces the file to disk, which the dispatcher does at most once a second (a crash of the
 * whole machine may re-run the last second's tasks, never skip one).
 */
public final class FarmJournal implements AutoCloseable {
  private static final Base64.Encoder B64 = Base64.getEncoder();
  private static final Base64.Decoder B64D = Base64.getDecoder();

  private final Path file;
  private final FileChannel channel;
  private final Map<Long, TaskResult> completed;

  private FarmJournal(Path file, FileChannel channel, Map<Long, TaskResult> completed) {
    this.file = file;
    this.channel = channel;
    this.completed = completed;
  }

  /**
   * Opens (creating, owner-only) the journal at {@code file} and reads what it holds; a torn last
   * line is cut off. An unreadable line in the middle is an error: the file was damaged.
   */
  public static FarmJournal open(Path file) throws IOException {
    if (!Files.exists(file)) {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    byte[] bytes = Files.readAllBytes(file);
    Map<Long, TaskResult> done = new LinkedHashMap<>();
    int lineStart = 0;
    int lineNo = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        lineNo++;
        String line = new String(bytes, lineStart, i - lineStart, StandardCharsets.UTF_8);
        TaskResult r = parse(line, file, lineNo);
        done.put(r.taskId(), r);
        lineStart = i + 1;
      }
    }
    FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE);
    ch.truncate(lineStart); // a torn last line (no LF): that task was not durably final
    ch.position(lineStart);
    return new FarmJournal(file, ch, done);
  }

  /** The tasks already final, by id, in the order they finished. */
  public Map<Long, TaskResult> completed() {
    return java.util.Collections.unmodifiableMap(completed);
  }

  /** Appends a batch of results with one write (not forced to disk; see {@link #sync()}). */
  public void append(List<TaskResult> results) throws IOException {
    if (results.isEmpty()) {
      return;
    }
    StringBuilder sb = new StringBuilder(results.size() * 96);
    for (TaskResult r : results) {
      sb.append("v1\t")
          .append(r.taskId())
          .append('\t')
          .append(r.end().label())
          .append('\t')
          .append(r.code())
          .append('\t')
          .append(r.attempts())
          .append('\t')
          .append(r.start().toEpochMilli())
          .append('\t')
          .append(r.durationMicros())
          .append('\t')
          .append(B64.encodeToString(r.launcherHost().getBytes(StandardCharsets.UTF_8)))
          .append('\t')
          .append(B64.encodeToString(r.output().getBytes(StandardCharsets.UTF_8)))
          .append('\n');
    }
    ByteBuffer buf = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
    for (TaskResult r : results) {
      completed.put(r.taskId(), r);
    }
  }

  /** Forces what was appended to the disk. */
  public void sync() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    try {
      sync();
    } finally {
      channel.close();
    }
  }

  private static TaskResult parse(String line, Path file, int lineNo) throws IOException {
    String[] f = line.split("\t", -1);
    try {
      if (f.length != 9 || !f[0].equals("v1")) {
        throw new IllegalArgumentException("expected 9 tab-separated fields starting with v1");
      }
      return new TaskResult(
          Long.parseLong(f[1]),
          TaskEnd.valueOf(f[2].toUpperCase(java.util.Locale.ROOT)),
          Integer.parseInt(f[3]),
          Integer.parseInt(f[4]),
          new String(B64D.decode(f[7]), StandardCharsets.UTF_8),
          Instant.ofEpochMilli(Long.parseLong(f[5])),
          Long.parseLong(f[6]),
          new String(B64D.decode(f[8]), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "farm journal " + file + " line " + lineNo + " is damaged: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "FarmJournal[" + file + ", " + completed.size() + " final]";
  }
}
