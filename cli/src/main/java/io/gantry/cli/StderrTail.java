package io.gantry.cli;

import io.gantry.cli.soap.OutputChunk;
import io.gantry.cli.soap.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The last lines of a job's standard error, which {@code submit --wait} shows when the job failed,
 * so that the reason a program gave is on the screen without another command. Reads only the end of
 * the file (its size comes with the first chunk), however long it is.
 */
final class StderrTail {
  static final int LINES = 20;

  /** How far back from the end to look for {@link #LINES} lines: 20 long lines fit. */
  private static final int WINDOW = 64 * 1024;

  private StderrTail() {}

  /** The last {@code LINES} lines, or none when the job wrote nothing to standard error. */
  static List<String> of(ServerConnection server, String jobId) {
    OutputChunk probe = server.call(s -> s.getJobOutput(jobId, OutputStream.STDERR, 0, 1));
    long size = probe.getSize() == null ? 0 : probe.getSize();
    if (size == 0) {
      return List.of();
    }
    long from = Math.max(0, size - WINDOW);
    OutputChunk end = server.call(s -> s.getJobOutput(jobId, OutputStream.STDERR, from, WINDOW));
    String text = new String(end.getData(), StandardCharsets.UTF_8);
    List<String> lines = Arrays.asList(text.split("\r?\n", -1));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines = lines.subList(0, lines.size() - 1); // the text's final line break
    }
    if (from > 0 && !lines.isEmpty()) {
      lines = lines.subList(1, lines.size()); // the first line of the window may be cut
    }
    return lines.subList(Math.max(0, lines.size() - LINES), lines.size());
  }
}
