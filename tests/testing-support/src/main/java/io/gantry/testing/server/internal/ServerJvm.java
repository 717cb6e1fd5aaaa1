package io.gantry.testing.server.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The command lines of gantry-server in a JVM of its own, on the test's class path, as the launcher
 * ({@code middleware-server/bin/gantry-server}) runs it: its main class with a configuration file.
 * Output goes to files under {@code target/gantry-test-servers}, kept after the test's temporary
 * directory is gone, to read after a failure.
 */
public final class ServerJvm {
  /** gantry-server's main class; named, not linked, so that this module needs no server. */
  public static final String MAIN = "io.gantry.server.GantryServerCommand";

  private static final AtomicLong RUNS = new AtomicLong();

  /**
   * A server for tests needs little heap; the serial collector and C1 alone start a JVM fastest on
   * a machine of two cores where the test JVM runs beside it. A benchmark asks for others.
   */
  public static final List<String> FAST_START =
      List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  // Log lines carry the time of day, to line them up with the test's own output after a failure.
  private static final List<String> LOG_OPTIONS =
      List.of(
          "-Dorg.slf4j.simpleLogger.showDateTime=true",
          "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");

  private ServerJvm() {}

  /** Where a run's standard output and error go: {@code NAME-PID-N.out} and {@code .err}. */
  public static Path logStem(String name) {
    try {
      Path logs = Files.createDirectories(Path.of("target", "gantry-test-servers"));
      return logs.resolve(
          name + "-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts gantry-server on {@code config}; it stops when this JVM's end of its input closes. */
  public static Process startServer(Path config, List<String> jvmOptions, Path stdout, Path stderr)
      throws IOException {
    SharedClasses.Launch launch = SharedClasses.launch(jvmOptions, true);
    List<String> command = java(jvmOptions, launch);
    command.addAll(List.of(ParentWatch.class.getName(), MAIN, "--config", config.toString()));
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    launch.started(process);
    return process;
  }

  /**
   * Runs {@code gantry-server user add} for each of {@code commands} (its arguments after {@code
   * user add}'s own) in one JVM, each with its password on standard input ({@link UserAddBatch});
   * returns the exit code of the first that failed, or 0; the output is in {@code stem.out/.err}.
   */
  public static int addUsers(
      List<List<String>> commands, List<String> passwords, Path stem, Duration timeout)
      throws IOException, InterruptedException {
    String mainClass = UserAddBatch.class.getName();
    String input = UserAddBatch.input(commands, passwords);
    List<String> command = java(FAST_START, SharedClasses.launch(FAST_START, false));
    command.add(mainClass);
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out(stem).toFile())
            .redirectError(err(stem).toFile())
            .start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.UTF_8));
    }
    try {
      StartingJvm.await(
          "gantry-server user add (" + commands.size() + " accounts)",
          process,
          timeout,
          process::isAlive,
          alive -> !alive,
          alive -> "still running");
    } catch (AssertionError e) {
      String threads = threadDump(process, stem);
      process.destroyForcibly().waitFor();
      throw new IllegalStateException(
          "gantry-server user add ran over its time ("
              + e.getMessage()
              + ")"
              + "; its output: "
              + tail(out(stem))
              + tail(err(stem))
              + threads);
    }
    return process.exitValue();
  }

  /**
   * What each thread of a JVM that ran over its time was doing ({@code jcmd PID Thread.print}),
   * kept in {@code stem.threads} and returned (the first frames) for the failure's message: a hang
   * on a loaded CI machine is otherwise known only by its timeout.
   */
  public static String threadDump(Process process, Path stem) {
    Path dump = stem.resolveSibling(stem.getFileName() + ".threads");
    try {
      Process jcmd =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  Long.toString(process.pid()),
                  "Thread.print")
              .redirectErrorStream(true)
              .redirectOutput(dump.toFile())
              .start();
      if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
        jcmd.destroyForcibly();
      }
      String threads = Files.readString(dump); // main and the application's threads come first
      return "; its threads ("
          + dump
          + "):\n"
          + threads.substring(0, Math.min(threads.length(), 12_000));
    } catch (IOException e) {
      return "; no thread dump: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "; no thread dump: interrupted";
    }
  }

  /** The last 6,000 characters of a file (a log), or why not. */
  private static String tail(Path file) {
    try {
      String text = Files.readString(file);
      return "\n--- "
          + file.getFileName()
          + "\n"
          + text.substring(Math.max(0, text.length() - 6000));
    } catch (IOException e) {
      return "\n--- " + file.getFileName() + " unreadable: " + e.getMessage();
    }
  }

  public static Path out(Path stem) {
    return stem.resolveSibling(stem.getFileName() + ".out");
  }

  public static Path err(Path stem) {
    return stem.resolveSibling(stem.getFileName() + ".err");
  }

  private static List<String> java(List<String> jvmOptions, SharedClasses.Launch classes) {
    if (ClassLoader.getSystemResource(MAIN.replace('.', '/') + ".class") == null) {
      throw new IllegalStateException(
          MAIN
              + " is not on this test's class path: add"
              + " gantry-middleware-server to the module's test dependencies");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(LOG_OPTIONS);
    // the server's temporary files go where this test run keeps its own (surefire's argLine)
    command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    command.addAll(classes.options()); // the class path, and the class-data archive if any
    return command;
  }
}
