package io.gantry.dispatcher.workersession;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.HostileClient;
import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker session's dispatcher attacked over real loopback sockets: 150 connections announcing 4
 * MiB frames without a secret (which grew the server by 640 MiB before the wire layer bounded
 * connections before HELLO), and a launcher more than the session has workers. Its workers are real
 * gantry-launcher and session-echo-worker processes.
 */
class SessionDispatcherFloodTest {
  private static final Path BUILD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build");
  private static final Path LAUNCHER = BUILD.resolve("gantry-launcher");
  private static final Path ECHO = BUILD.resolve("session-echo-worker");
  private static final Duration LIMIT = Await.scaled(Duration.ofSeconds(60));
  private static final String SECRET = FarmDispatcher.newSecret();

  @TempDir Path dir;
  private final List<Process> launchers = new ArrayList<>();
  private final List<HostileClient> attackers = new ArrayList<>();

  @BeforeAll
  static void built() {
    assertTrue(Files.isExecutable(LAUNCHER), "build the node programs first: " + LAUNCHER);
    assertTrue(Files.isExecutable(ECHO), "build the node programs first: " + ECHO);
  }

  @AfterEach
  void stop() throws Exception {
    for (HostileClient a : attackers) {
      a.close();
    }
    for (Process p : launchers) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void fourMebibyteFramesAnnouncedWithoutASecretAreClosedAndNeverBuffered() throws Exception {
    SessionOptions patient =
        new SessionOptions(1, 100, 1 << 20, 4096, 4, 1, 5, LIMIT.multipliedBy(5));
    try (SessionDispatcher d = start(patient)) {
      long most = 0;
      for (int i = 0; i < 150; i++) {
        HostileClient a = HostileClient.connect(d.address());
        attackers.add(a);
        a.announce(4 << 20, 64 * 1024);
        most = Math.max(most, d.inputBufferBytes());
      }
      for (int i = 0; i < attackers.size(); i++) {
        assertTrue(
            attackers.get(i).closedWithin(Await.scaled(Duration.ofSeconds(10))),
            "connection " + i + " announcing 4 MiB before HELLO was closed");
        most = Math.max(most, d.inputBufferBytes());
      }
      long cap = (long) patient.maxUnauthenticated() * 516;
      assertTrue(most <= cap, "input buffers held " + most + " bytes, more than " + cap);
      startLaunchers(d, 1);
      d.submit(List.of(new SessionMessage("still served", TaskPriority.NORMAL)));
      List<Completion> done = d.take(1, LIMIT);
      assertEquals(1, done.size(), "the session's own launcher got through: " + d.status());
      assertEquals("still served", done.get(0).output());
    }
  }

  @Test
  void aLauncherPastTheSessionsWorkersIsRefused() throws Exception {
    try (SessionDispatcher d = start(SessionOptions.defaults(1))) {
      startLaunchers(d, 1);
      Await.until("the worker runs", LIMIT, () -> d.status().workers() == 1);
      Process second = startLaunchers(d, 1);
      assertTrue(second.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
      String err = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(2, second.exitValue(), "refused: " + err);
      assertTrue(err.contains("all 1 launchers of this session are connected"), err);
      assertEquals(1, d.status().workers());
    }
  }

  @Test
  void aRefusedConnectionThatNeverReadsIsClosed() throws Exception {
    try (SessionDispatcher d = start(SessionOptions.defaults(1))) {
      HostileClient wrong = HostileClient.connect(d.address());
      attackers.add(wrong);
      wrong.send(HostileClient.hello("not-the-secret", "intruder"));
      Await.until("the refused connection is closed", LIMIT, () -> d.openConnections() == 0);
    }
  }

  /**
   * A launcher whose host is lost says nothing more and sends no reset: only the dispatcher's TCP
   * keepalive ends its connection (docs/reliability.md, "Lost nodes"). The kernel's own view of the
   * accepted connection ({@code ss -o}) shows a keepalive timer of at most 5 s, not Linux's 2 h.
   */
  @Test
  void anAcceptedConnectionIsProbedByKeepaliveWithinSeconds() throws Exception {
    // the client hangs up before the dispatcher closes, which would otherwise wait for it
    try (SessionDispatcher d = start(SessionOptions.defaults(1));
        HostileClient silent = HostileClient.connect(d.address())) {
      String filter = "( sport = :" + d.address().getPort() + " )";
      // ss prints the time left as [Mmin][S(sec|.)][MMMms]: "4.924ms" is 4.924 s, "119min" 2 h
      Pattern timer =
          Pattern.compile("timer:\\(keepalive,(?:(\\d+)min)?(?:(\\d+)(?:sec|\\.))?(?:(\\d+)ms)?,");
      Await.until(
          "the dispatcher's end of the connection to probe within 5 s",
          LIMIT,
          () -> {
            Process ss =
                new ProcessBuilder("ss", "-tnoH", "state", "established", filter)
                    .redirectErrorStream(true)
                    .start();
            String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ss.waitFor();
            Matcher m = timer.matcher(out);
            return m.find()
                && m.group(1) == null
                && (m.group(2) == null ? 0 : Integer.parseInt(m.group(2))) * 1000L
                        + (m.group(3) == null ? 0 : Integer.parseInt(m.group(3)))
                    <= 5000;
          });
    }
  }

  private SessionDispatcher start(SessionOptions options) throws IOException {
    return SessionDispatcher.start(
        "flood",
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        SECRET,
        new WorkerProgram(ECHO.toString(), List.of(), Map.of()),
        options);
  }

  private Process startLaunchers(SessionDispatcher d, int n) throws IOException {
    Process last = null;
    for (int i = 0; i < n; i++) {
      ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString()).directory(dir.toFile());
      pb.environment().put("GANTRY_FARM_DISPATCHER", "127.0.0.1:" + d.address().getPort());
      pb.environment().put("GANTRY_FARM_SECRET", SECRET);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      last = pb.start();
      launchers.add(last);
    }
    return last;
  }
}
