package io.gantry.dispatcher.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * A process's start time as the kernel counts it ({@code /proc/PID/stat} field 22, clock ticks
 * after boot): with the pid, it names one process for good, where a pid alone may be reused by an
 * unrelated process after a restart.
 */
final class ProcStat {
  private ProcStat() {}

  /** The start time of a live (not zombie) process {@code pid}; empty if there is none. */
  static OptionalLong startTicks(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    // the command name in parentheses may hold spaces and ')': fields count from the last ')'
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return OptionalLong.empty();
    }
    String[] fields = stat.substring(close + 2).split(" ");
    // fields[0] is field 3 (state), so field 22 is fields[19]
    if (fields.length < 20 || fields[0].equals("Z") || fields[0].equals("X")) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(fields[19]));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** Whether {@code pid} is still the process that started at {@code ticks}, and alive. */
  static boolean isSame(long pid, long ticks) {
    OptionalLong now = startTicks(pid);
    return now.isPresent() && now.getAsLong() == ticks;
  }
}
