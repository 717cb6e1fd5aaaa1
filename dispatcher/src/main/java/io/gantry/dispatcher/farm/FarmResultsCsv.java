package io.gantry.dispatcher.farm;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a farm's results as RFC 4180 CSV, one row per task in task-id order, for SQL stage-out
 * like any other file. Columns: {@code task_id}, the farm's input columns, {@code state} ({@code
 * succeeded}, or how it failed: {@code exited}, {@code signaled}, {@code timed_out}, {@code
 * not_started}, {@code lost}), {@code exit_code} (empty unless it exited), {@code signal} (empty
 * unless a signal ended it), {@code attempts}, {@code launcher_host}, {@code started_at} (ISO-8601
 * UTC), {@code duration_ms} (3 decimals), {@code output}. Written under a temporary name and
 * renamed, so a half-written file is never seen under its name.
 */
public final class FarmResultsCsv {
  private FarmResultsCsv() {}

  public static List<String> header(List<String> inputNames) {
    List<String> h = new ArrayList<>();
    h.add("task_id");
    h.addAll(inputNames);
    h.addAll(
        List.of(
            "state",
            "exit_code",
            "signal",
            "attempts",
            "launcher_host",
            "started_at",
            "duration_ms",
            "output"));
    return h;
  }

  public static void write(
      Path file, List<String> inputNames, List<FarmTask> tasks, Map<Long, TaskResult> results)
      throws IOException {
    Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      write(w, inputNames, tasks, results);
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Writes the rows to {@code w}; a caller that places the file in a directory someone else can
   * write (a job directory) writes it elsewhere first and renames it there.
   */
  public static void write(
      Writer w, List<String> inputNames, List<FarmTask> tasks, Map<Long, TaskResult> results)
      throws IOException {
    {
      row(w, header(inputNames));
      for (FarmTask t :
          tasks.stream().sorted(java.util.Comparator.comparingLong(FarmTask::id)).toList()) {
        TaskResult r = results.get(t.id());
        if (r == null) {
          throw new IOException("task " + t.id() + " has no final state");
        }
        List<String> cells = new ArrayList<>();
        cells.add(Long.toString(t.id()));
        cells.addAll(t.inputs());
        cells.add(r.succeeded() ? "succeeded" : r.end().label());
        cells.add(r.end() == TaskEnd.EXITED ? Integer.toString(r.code()) : "");
        cells.add(
            r.end() == TaskEnd.SIGNALED || r.end() == TaskEnd.TIMED_OUT
                ? Integer.toString(r.code())
                : "");
        cells.add(Integer.toString(r.attempts()));
        cells.add(r.launcherHost());
        cells.add(r.start().toString());
        cells.add(String.format(java.util.Locale.ROOT, "%.3f", r.durationMicros() / 1000.0));
        cells.add(r.output());
        row(w, cells);
      }
    }
  }

  private static void row(Writer w, List<String> cells) throws IOException {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        w.write(',');
      }
      w.write(quoted(cells.get(i)));
    }
    w.write("\r\n");
  }

  private static String quoted(String s) {
    // NUL is dropped: no database loads it into a text column
    String v = s.replace("\0", "");
    if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
      return v;
    }
    return '"' + v.replace("\"", "\"\"") + '"';
  }
}
