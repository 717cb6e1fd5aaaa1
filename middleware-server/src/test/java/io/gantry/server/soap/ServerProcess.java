package io.gantry.server.soap;

import io.gantry.server.GantryServerCommand;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * gantry-server in a JVM of its own, started as the launcher starts it ({@link
 * GantryServerCommand} with a configuration file), so that a test can kill it with SIGKILL and
 * start another on the same data directory. Its output goes to files under
 * {@code target/server-process-logs}.
 */
final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");

  private final Process process;
  private final String url;

  private ServerProcess(Process process, String url) {
    this.process = process;
    this.url = url;
  }

  /** Writes {@code settings} as the configuration file in {@code dir} and starts the server. */
  static ServerProcess start(Path dir, Map<String, String> settings, String runName) throws Exception {
    Path config = dir.resolve("gantry-server.properties");
    Properties properties = new Properties();
    properties.putAll(settings);
    try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
      properties.store(out, "written by ServerProcess");
    }
    // kept under target/ after the test's temporary directory is gone, to read after a failure
    Path logs = Files.createDirectories(Path.of("target", "server-process-logs"));
    String stem = runName + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    Path stdout = logs.resolve(stem + ".out");
    Path stderr = logs.resolve(stem + ".err");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(List.of(java, "-Xmx256m", "-cp", testClassPath(),
        GantryServerCommand.class.getName(), "--config", config.toString()))
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    try {
      return new ServerProcess(process, awaitUrl(process, stdout, stderr, Duration.ofSeconds(60)));
    } catch (Exception | Error e) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw e;
    }
  }

  private static String testClassPath() {
    String classPath = System.getProperty("java.class.path");
    if (!classPath.contains("test-classes")) {
      throw new IllegalStateException("expected the test class path, got " + classPath);
    }
    return classPath;
  }

  private static String awaitUrl(Process process, Path stdout, Path stderr, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(stdout));
      if (m.find()) {
        return m.group(1);
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("gantry-server exited with " + process.exitValue() + ": "
            + Files.readString(stderr));
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("gantry-server did not say where it listens within " + timeout);
  }

  String url() {
    return url;
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed or closed. */
  void killHard() throws InterruptedException {
    process.toHandle().destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("gantry-server survived SIGKILL for 30 s");
    }
  }

  /** SIGTERM: the server's shutdown hook stops it in order. */
  @Override
  public void close() throws InterruptedException {
    process.toHandle().destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      killHard();
    }
  }
}
