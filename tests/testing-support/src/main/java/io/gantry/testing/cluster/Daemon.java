package io.gantry.testing.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One daemon of a test cluster, started in the foreground through its entry script with output to a
 * log file. The scripts exec the daemon, so {@link #pid()} is the daemon's own PID.
 */
final class Daemon {
  private final String name;
  private final Process process;
  private final Path log;

  private Daemon(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static Daemon start(String name, List<String> command, Path log) {
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      return new Daemon(name, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Waits until {@code ready} holds; fails early, with the log's end, when the daemon exits. */
  void awaitReady(BooleanSupplier ready, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.getAsBoolean()) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name
                + " exited with "
                + process.exitValue()
                + " before "
                + what
                + "; its log "
                + log
                + " ends with:\n"
                + logTail());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            name
                + " did not reach '"
                + what
                + "' within "
                + timeout
                + "; its log "
                + log
                + " ends with:\n"
                + logTail());
      }
      sleep(Duration.ofMillis(100));
    }
  }

  boolean logContains(String text) {
    try {
      return Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  /** SIGTERM, then SIGKILL after {@code grace}; descendants too. */
  void stop(Duration grace) {
    List<Long> pids = new ArrayList<>();
    process.descendants().forEach(p -> pids.add(p.pid()));
    pids.add(0, process.pid());
    killAll(pids, grace);
  }

  /**
   * Terminates the given processes: SIGTERM to all, SIGKILL to those still there after {@code
   * grace}.
   */
  static void killAll(List<Long> pids, Duration grace) {
    List<ProcessHandle> handles =
        pids.stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
    handles.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + grace.toNanos();
    while (handles.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      sleep(Duration.ofMillis(50));
    }
    handles.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle handle : handles) {
      handle.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> handle).join();
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting", e);
    }
  }
}
