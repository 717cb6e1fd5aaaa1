package io.gantry.testing.server;

import io.gantry.testing.Await;
import io.gantry.testing.server.internal.ServerJvm;
import io.gantry.testing.server.internal.StartingJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real gantry-server for tests, the one fixture every module's tests start it with:
 *
 * <pre>{@code
 * try (GantryTestServer server = GantryTestServer.builder(tempDir).secure()
 *     .account(TestAccount.admin("admin")).account(TestAccount.user("alice")).start()) {
 *   ... server.url(), server.fingerprint(), server.account("alice").password() ...
 * }
 * }</pre>
 *
 * <p>Why a process of its own, started as a deployment starts it (the launcher's main class, a
 * configuration file, accounts added with {@code gantry-server user add}):
 *
 * <ol>
 *   <li>This module is on the test class path of middleware-server itself, so it cannot depend on
 *       the server (a reactor cycle); it names the server's main class and command line, which are
 *       the server's public, documented face anyway.
 *   <li>A test sees what a user sees: the URL and fingerprint the server prints, its log, the files
 *       in its data directory; nothing reaches into the server's objects.
 *   <li>Tests can stop the server as an operator does (SIGTERM, {@link #close}) or as a crash does
 *       ({@link #killHard}), by its PID, and start another on the same data directory.
 * </ol>
 */
public final class GantryTestServer implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("listening on (https?://\\S+)");
  private static final Pattern FINGERPRINT =
      Pattern.compile("TLS certificate SHA-256 fingerprint: (\\S+)");
  private static final Pattern DEMO_SSH = Pattern.compile("demo SSH host listening on \\S+:(\\d+)");
  static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path config;
  private final Path dataDir;
  private final Path logStem;
  private final List<TestAccount> accounts;
  private final String url;
  private final Optional<String> fingerprint;
  private final OptionalInt demoSshPort;

  private GantryTestServer(
      Process process,
      Path config,
      Path dataDir,
      Path logStem,
      List<TestAccount> accounts,
      String startOutput) {
    this.process = process;
    this.config = config;
    this.dataDir = dataDir;
    this.logStem = logStem;
    this.accounts = accounts;
    Matcher listening = LISTENING.matcher(startOutput);
    this.url = listening.find() ? listening.group(1) : null;
    Matcher tls = FINGERPRINT.matcher(startOutput);
    this.fingerprint = tls.find() ? Optional.of(tls.group(1)) : Optional.empty();
    Matcher demo = DEMO_SSH.matcher(startOutput);
    this.demoSshPort =
        demo.find() ? OptionalInt.of(Integer.parseInt(demo.group(1))) : OptionalInt.empty();
  }

  /** A server whose configuration file, data directory and own files live in {@code dir}. */
  public static GantryTestServerBuilder builder(Path dir) {
    return new GantryTestServerBuilder(dir);
  }

  static GantryTestServer start(
      Path config,
      Path dataDir,
      List<TestAccount> accounts,
      String name,
      List<String> jvmOptions,
      int startSlowness)
      throws IOException, InterruptedException {
    Path stem = ServerJvm.logStem(name);
    Process process =
        ServerJvm.startServer(config, jvmOptions, ServerJvm.out(stem), ServerJvm.err(stem));
    try {
      String output =
          StartingJvm.await(
              "gantry-server (" + config + ") to say where it listens",
              process,
              START_TIMEOUT.multipliedBy(startSlowness),
              () -> startOutput(process, stem),
              text -> LISTENING.matcher(text).find(),
              text -> "its output: " + text);
      return new GantryTestServer(process, config, dataDir, stem, accounts, output);
    } catch (RuntimeException | Error e) {
      if (process.isAlive()) { // silent, not exited: what it was doing goes with the failure
        e.addSuppressed(new IllegalStateException(ServerJvm.threadDump(process, stem)));
      }
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw e;
    }
  }

  private static String startOutput(Process process, Path stem) throws IOException {
    String output = Files.readString(ServerJvm.out(stem));
    if (!LISTENING.matcher(output).find() && !process.isAlive()) {
      throw new IllegalStateException(
          "gantry-server exited with "
              + process.exitValue()
              + ": "
              + Files.readString(ServerJvm.err(stem)).strip());
    }
    return output;
  }

  /** The job-management endpoint, as the server prints it. */
  public String url() {
    return url;
  }

  /** What a user passes as {@code --server}: scheme, host and port, without a path. */
  public String baseUrl() {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
  }

  /** {@code path} (starting with /) on this server. */
  public String url(String path) {
    return baseUrl() + path;
  }

  public int port() {
    return URI.create(url).getPort();
  }

  /** The SHA-256 fingerprint of the TLS certificate, as printed at start; empty over plain HTTP. */
  public Optional<String> fingerprint() {
    return fingerprint;
  }

  /** The demo SSH host's port, when the demo runs. */
  public OptionalInt demoSshPort() {
    return demoSshPort;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The configuration file the server runs on (for {@code gantry-server ... --config}). */
  public Path configFile() {
    return config;
  }

  /**
   * A job's directory. Tests reach a running job through files here (a "release" file the job waits
   * for): the job's sandbox shows it nothing of the test's own directories.
   */
  public Path jobDirectory(String jobId) {
    return dataDir.resolve("jobs").resolve(jobId);
  }

  public List<TestAccount> accounts() {
    return accounts;
  }

  public TestAccount account(String name) {
    return accounts.stream()
        .filter(a -> a.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new NoSuchElementException("no account " + name + " on this server"));
  }

  /** The first administrator account. */
  public TestAccount admin() {
    return accounts.stream()
        .filter(TestAccount::admin)
        .findFirst()
        .orElseThrow(() -> new NoSuchElementException("this server has no administrator account"));
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What the server wrote so far: standard output, then standard error (its log). */
  public String log() {
    try {
      return Files.readString(ServerJvm.out(logStem)) + Files.readString(ServerJvm.err(logStem));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed or closed, as in a crash. */
  public void killHard() {
    process.destroyForcibly();
    awaitExit("SIGKILL");
  }

  /** SIGTERM: the server's shutdown hook stops it in order; SIGKILL if it does not within 60 s. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (process.waitFor(Await.scaled(STOP_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    killHard();
  }

  private void awaitExit(String signal) {
    try {
      if (!process.waitFor(Await.scaled(STOP_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("gantry-server (PID " + pid() + ") survived " + signal);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while stopping gantry-server (PID " + pid() + ")", e);
    }
  }
}
