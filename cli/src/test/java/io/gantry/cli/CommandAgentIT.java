package io.gantry.cli;

import static io.gantry.cli.CliServers.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command agent (CommandAgent, gantry-client and bin/gantry together) against a real server
 * with TLS and accounts: commands answer from the agent exactly as from a JVM of their own, in the
 * user's directory and environment; what needs the user's own standard input or terminal runs in a
 * JVM of its own; another OS user cannot use the agent; a stopped client stops its command, and an
 * idle agent ends. Each test's agents live in a runtime directory of its own and are stopped by the
 * process ids they wrote.
 */
@ExtendWith(CliServers.Secure.class)
class CommandAgentIT {
  private static final Path LAUNCHER = Path.of("bin/gantry").toAbsolutePath();
  private static final Path CLIENT = Path.of("target/native/gantry-client").toAbsolutePath();
  private static final String OTHER_OS_USER = "gantry-test-bob";

  @TempDir Path dir;
  private Path runtime;
  private Path work;

  record Result(int exitCode, String out, String err) {}

  @BeforeEach
  void directories() throws IOException {
    // short: a Unix socket's path has at most 107 bytes (bin/gantry falls back to /tmp beyond)
    runtime = Files.createTempDirectory(Path.of("/tmp"), "gantry-it-run");
    work = Files.createDirectories(dir.resolve("work"));
  }

  @AfterEach
  void stopAgents() throws Exception {
    List<Path> pidFiles;
    try (Stream<Path> files = Files.walk(runtime)) {
      pidFiles = files.filter(f -> f.toString().endsWith(".sock.pid")).toList();
    }
    for (Path pidFile : pidFiles) {
      Optional<String> pid = readIfThere(pidFile);
      if (pid.isPresent()) {
        Optional<ProcessHandle> agent = ProcessHandle.of(Long.parseLong(pid.get().strip()));
        if (agent.isPresent()) {
          agent.get().destroy();
          agent.get().onExit().get(30, TimeUnit.SECONDS);
        }
      }
    }
    try (Stream<Path> files = Files.walk(runtime)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }

  @Test
  void commandsAnswerFromTheAgentAsFromAJvmOfTheirOwn(GantryTestServer server) throws Exception {
    Map<String, String> env = environment(server);
    Path socket = loginAndAwaitTheAgent(env);
    TestJobs.posix(work, "hello", "/bin/echo", "from the agent");

    // a relative file name is the user's directory's, not the agent's (which runs in /)
    Result submit = client(socket, env, "", "submit", "-q", "--wait", "hello.jsdl");
    assertEquals(0, submit.exitCode(), submit.toString());
    String id = submit.out().strip();
    assertTrue(id.matches("[a-z2-7]{32}"), submit.toString());

    Result viaAgent = client(socket, env, "", "status", id);
    Result ownJvm = launcher(withAgentOff(env), "", "status", id);
    assertEquals(0, viaAgent.exitCode(), viaAgent.toString());
    assertEquals(ownJvm, viaAgent);
    assertTrue(viaAgent.out().startsWith(id + "  SUCCEEDED"), viaAgent.toString());

    Result get = client(socket, env, "", "get", id, "stdout.txt", "-o", "copy.txt");
    assertEquals(0, get.exitCode(), get.toString());
    assertEquals("from the agent\n", Files.readString(work.resolve("copy.txt")));

    // errors and exit codes are the command's, whichever JVM ran it
    Result unknown = client(socket, env, "", "status", "nosuchjob");
    assertEquals(launcher(withAgentOff(env), "", "status", "nosuchjob"), unknown);
    assertEquals(ExitCodes.USAGE_OR_IO, unknown.exitCode());

    // the request's environment is the command's: another server fails the same way
    Map<String, String> elsewhere = new HashMap<>(env);
    elsewhere.put("GANTRY_SERVER", "https://127.0.0.1:1");
    Result unreachable = client(socket, elsewhere, "", "status", id);
    assertEquals(ExitCodes.SERVER, unreachable.exitCode(), unreachable.toString());
    assertEquals(launcher(withAgentOff(elsewhere), "", "status", id), unreachable);

    // and bin/gantry goes through it
    assertEquals(viaAgent, launcher(env, "", "status", id));
  }

  @Test
  void standardInputStaysWithTheUsersOwnProcess(GantryTestServer server) throws Exception {
    Map<String, String> env = environment(server);
    Path socket = loginAndAwaitTheAgent(env);
    String[] encrypt = {"encrypt-password", "--for-user", ALICE, "--for-destination", "db@risk"};

    Result asked = client(socket, env, "s3cret\n", encrypt);
    assertEquals(new Result(76, "", ""), asked);

    Result encrypted = launcher(env, "s3cret\n", encrypt);
    assertEquals(0, encrypted.exitCode(), encrypted.toString());
    assertTrue(encrypted.out().startsWith("ENC(RSA-OAEP-256-v2:alice:"), encrypted.toString());
  }

  @Test
  void anotherOsUserCannotUseTheAgent(GantryTestServer server) throws Exception {
    Map<String, String> env = environment(server);
    Path socket = loginAndAwaitTheAgent(env);
    // the socket's directory is root's own: another user's client does not even connect
    Result refused = asOtherUser(List.of(CLIENT.toString(), socket.toString(), "list"), env);
    assertEquals(75, refused.exitCode(), refused.toString());

    // and an agent whose socket someone opened up still serves only its own user
    Path open = Files.createDirectories(dir.resolve("open"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path openSocket = open.resolve("agent.sock");
    Path log = open.resolve("agent.log");
    Process agent =
        new ProcessBuilder(
                "java",
                "-cp",
                classpath(),
                CommandAgent.class.getName(),
                openSocket.toString(),
                "60")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      // "serving" comes once the socket is bound and made owner-only: opened up before that, the
      // agent would close it again
      Await.fileContaining(log, "gantry command agent serving", Duration.ofSeconds(60));
      Files.setPosixFilePermissions(openSocket, PosixFilePermissions.fromString("rw-rw-rw-"));
      String probe =
          "import socket,struct,sys\n"
              + "s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
              + "r=b'gantry-agent/1\\0/\\0' + b'0\\0' + b'0\\0' + b'1\\0' + b'list\\0'\n"
              + "s.sendall(struct.pack('>I', len(r)) + r)\n"
              // nothing comes back: an end of stream, or a reset (closed before reading)
              + "try:\n  n=len(s.recv(100))\nexcept ConnectionResetError:\n  n=0\n"
              + "print(n)\n";
      Result answer =
          asOtherUser(List.of("/usr/bin/python3", "-c", probe, openSocket.toString()), Map.of());
      assertEquals(new Result(0, "0\n", ""), answer);
      Await.fileContaining(
          log, "refused a client of user " + OTHER_OS_USER, Duration.ofSeconds(30));
    } finally {
      agent.destroy();
      assertTrue(agent.waitFor(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void aStoppedClientStopsItsCommandAndAnIdleAgentEnds(GantryTestServer server) throws Exception {
    Map<String, String> env = environment(server);
    env.put("GANTRY_AGENT_IDLE", "2");
    Path socket = loginAndAwaitTheAgent(env);
    long pid = Long.parseLong(Files.readString(pidFileOf(socket)).strip());
    TestJobs.posix(work, "held", "/bin/true");
    Result held = client(socket, env, "", "submit", "-q", "--hold", "held.jsdl");
    assertEquals(0, held.exitCode(), held.toString());
    String id = held.out().strip();
    try {
      // gantry wait on a held job would wait for ever; ^C on the client must end it in the agent
      Process waiting = start(List.of(CLIENT.toString(), socket.toString(), "wait", id), env, work);
      Thread.sleep(1500);
      assertTrue(waiting.isAlive(), "gantry wait on a held job ended by itself");
      waiting.destroy();
      assertTrue(waiting.waitFor(30, TimeUnit.SECONDS));
      Await.until(
          "the idle agent to end",
          Duration.ofSeconds(60),
          () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
      assertFalse(Files.exists(socket), "the ended agent left its socket");
      assertFalse(Files.exists(pidFileOf(socket)), "the ended agent left its pid file");
    } finally {
      launcher(withAgentOff(env), "", "cancel", id);
    }
  }

  /** gantry login as alice (a JVM of its own), which starts the agent; returns its socket. */
  private Path loginAndAwaitTheAgent(Map<String, String> env) throws Exception {
    Map<String, String> withPassword = new HashMap<>(env);
    withPassword.put(Invocation.PASSWORD_VARIABLE, TestAccount.defaultPassword(ALICE));
    Result login = launcher(withPassword, "", "login");
    assertEquals(0, login.exitCode(), login.toString());
    Path agents = runtime.resolve("gantry-agent-0");
    Path socket =
        Await.value(
                "the command agent to start in " + agents,
                Duration.ofSeconds(60),
                () -> socketIn(agents),
                Optional::isPresent)
            .orElseThrow();
    // bound, owner-only, serving (bin/gantry sends the agent's output to SOCKET.log)
    Await.fileContaining(
        socket.resolveSibling(socket.getFileName() + ".log"),
        "gantry command agent serving",
        Duration.ofSeconds(30));
    // started by a login given GANTRY_PASSWORD, the agent still does not hold the password
    String pid = Files.readString(pidFileOf(socket)).strip();
    String agentEnvironment = Files.readString(Path.of("/proc", pid, "environ"));
    assertFalse(agentEnvironment.contains(Invocation.PASSWORD_VARIABLE), "password in environ");
    assertEquals(
        PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(agents));
    assertEquals(
        PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(socket));
    return socket;
  }

  private static Optional<Path> socketIn(Path agents) throws IOException {
    if (!Files.isDirectory(agents)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(agents)) {
      return files
          .filter(f -> f.toString().endsWith(".sock") && Files.exists(pidFileOf(f)))
          .findFirst();
    }
  }

  private static Path pidFileOf(Path socket) {
    return socket.resolveSibling(socket.getFileName() + ".pid");
  }

  private Map<String, String> environment(GantryTestServer server) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("HOME", dir.toString());
    env.put("XDG_RUNTIME_DIR", runtime.toString());
    env.put(LoginFile.VARIABLE, dir.resolve("login.properties").toString());
    env.put("GANTRY_SERVER", server.baseUrl());
    env.put("GANTRY_USER", ALICE);
    env.put("GANTRY_SERVER_FINGERPRINT", server.fingerprint().orElseThrow());
    return env;
  }

  private static Map<String, String> withAgentOff(Map<String, String> env) {
    Map<String, String> off = new HashMap<>(env);
    off.put("GANTRY_AGENT", "off");
    return off;
  }

  private Result launcher(Map<String, String> env, String input, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    return run(command, env, input);
  }

  private Result client(Path socket, Map<String, String> env, String input, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(CLIENT.toString(), socket.toString()));
    command.addAll(List.of(args));
    return run(command, env, input);
  }

  private Result asOtherUser(List<String> command, Map<String, String> env) throws Exception {
    List<String> all =
        new ArrayList<>(
            List.of(
                "setpriv",
                "--reuid=" + OTHER_OS_USER,
                "--regid=" + OTHER_OS_USER,
                "--clear-groups"));
    all.addAll(command);
    Map<String, String> withPath = new HashMap<>(env);
    withPath.putIfAbsent("PATH", System.getenv("PATH"));
    return run(all, withPath, "", Path.of("/"));
  }

  private Result run(List<String> command, Map<String, String> env, String input) throws Exception {
    return run(command, env, input, work);
  }

  private static Result run(
      List<String> command, Map<String, String> env, String input, Path directory)
      throws Exception {
    Process process = start(command, env, directory);
    CompletableFuture<byte[]> err =
        CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
    try (OutputStream in = process.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
    return new Result(process.exitValue(), out, new String(err.get(), StandardCharsets.UTF_8));
  }

  private static Process start(List<String> command, Map<String, String> env, Path directory)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start();
  }

  private static byte[] readAll(java.io.InputStream stream) {
    try {
      return stream.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Optional<String> readIfThere(Path file) {
    try {
      return Optional.of(Files.readString(file));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String classpath() throws IOException {
    try (Stream<Path> jars = Files.list(Path.of("target"))) {
      Path jar =
          jars.filter(j -> j.getFileName().toString().matches("gantry-cli-.*(?<!-sources)\\.jar"))
              .findFirst()
              .orElseThrow();
      return jar.toAbsolutePath() + ":" + Path.of("target/lib").toAbsolutePath() + "/*";
    }
  }
}
