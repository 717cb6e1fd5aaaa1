package io.gantry.dispatcher.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.HostileClient;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A farm's dispatcher attacked by clients that are not its launchers, over real loopback sockets:
 * huge frames announced before HELLO, more connections than the cap, a slow sender, and one
 * launcher more than the job started. The dispatcher's input buffers stay bounded, the attackers
 * are closed or kept waiting, and the job's own launchers (real gantry-launcher processes) still
 * get through.
 */
class FarmDispatcherFloodTest {
  private static final Path LAUNCHER =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-launcher");
  private static final Duration LIMIT = Await.scaled(Duration.ofSeconds(60));
  private static final String SECRET = FarmDispatcher.newSecret();

  /**
   * The most a connection's input buffer may hold before HELLO: a 512-byte frame and its length.
   */
  private static final int HELLO_BUFFER = 516;

  @TempDir Path dir;
  private final List<Process> launchers = new ArrayList<>();
  private final List<HostileClient> attackers = new ArrayList<>();

  @BeforeAll
  static void launcherBuilt() {
    assertTrue(Files.isExecutable(LAUNCHER), "build the node programs first: " + LAUNCHER);
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
  void hugeFramesAnnouncedBeforeHelloAreClosedAtOnceWithoutBuffering() throws Exception {
    // a HELLO time far longer than the test waits: only the frame's size may close these
    FarmOptions patient = new FarmOptions(2, null, 4096, Duration.ofMinutes(5));
    try (FarmDispatcher d = start(patient, 1)) {
      long most = 0;
      for (int i = 0; i < 150; i++) {
        HostileClient a = attack(d);
        a.announce(4 << 20, 64 * 1024);
        most = Math.max(most, d.inputBufferBytes());
      }
      for (int i = 0; i < attackers.size(); i++) {
        assertTrue(
            attackers.get(i).closedWithin(Await.scaled(Duration.ofSeconds(10))),
            "connection " + i + " announcing 4 MiB before HELLO was closed");
        most = Math.max(most, d.inputBufferBytes());
      }
      long cap = (long) FarmOptions.defaults().maxUnauthenticated() * HELLO_BUFFER;
      assertTrue(most <= cap, "input buffers held " + most + " bytes, more than " + cap);
      Await.until("the attackers are gone", LIMIT, () -> d.openConnections() == 0);
      assertEquals(0, d.inputBufferBytes(), "closed connections leave no buffer behind");
      launch(d, 1);
      assertTrue(d.finished().get(LIMIT.toSeconds(), TimeUnit.SECONDS).get(1L).succeeded());
    }
  }

  @Test
  void connectionsPastTheCapWaitUnservedAndALauncherGetsThroughOnceTheyTimeOut() throws Exception {
    FarmOptions fourAtOnce = new FarmOptions(2, null, 4096, Duration.ofSeconds(2), 4);
    try (FarmDispatcher d = start(fourAtOnce, 1)) {
      for (int i = 0; i < 4; i++) {
        attack(d).announce(300, 10); // a HELLO begun, never finished
      }
      Await.until("the first four are accepted", LIMIT, () -> d.openConnections() == 4);
      for (int i = 0; i < 8; i++) {
        attack(d);
      }
      HostileClient extra = attack(d);
      extra.send(HostileClient.hello("not-the-secret", "intruder"));
      assertEquals(
          -1,
          extra.firstFrameType(Duration.ofMillis(1500)),
          "a connection past the cap is not served while four wait for their HELLO");
      assertTrue(d.openConnections() <= 4, d.openConnections() + " connections open");
      assertTrue(d.inputBufferBytes() <= 4L * HELLO_BUFFER, d.inputBufferBytes() + " bytes");
      Process launcher = launch(d, 1).get(0);
      assertTrue(
          d.finished().get(LIMIT.toSeconds(), TimeUnit.SECONDS).get(1L).succeeded(),
          "the launcher got through once the silent connections timed out");
      assertTrue(launcher.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
      assertEquals(0, launcher.exitValue());
    }
  }

  @Test
  void aSlowSenderIsClosedAtTheHelloTimeout() throws Exception {
    try (FarmDispatcher d = start(FarmOptions.defaults(), 1)) {
      HostileClient slow = attack(d);
      byte[] hello = HostileClient.hello(SECRET, "slow");
      long t0 = System.nanoTime();
      int sent = 0;
      while (sent < hello.length - 1 && slow.trickle(hello[sent])) {
        sent++;
        Thread.sleep(200); // a HELLO of 89 bytes would take 18 s
      }
      Duration held = Duration.ofNanos(System.nanoTime() - t0);
      assertTrue(sent < hello.length - 1, "the slow sender was cut off before its HELLO ended");
      Duration most =
          FarmOptions.defaults().helloTimeout().plus(Await.scaled(Duration.ofSeconds(5)));
      assertTrue(held.compareTo(most) < 0, "held for " + held + ", more than " + most);
      assertTrue(slow.closedWithin(Duration.ofSeconds(1)));
    }
  }

  @Test
  void aHelloOfAnotherProtocolVersionIsRefusedSayingWhich() throws Exception {
    // a launcher of the release before the heartbeat would be taken for lost: it is refused
    try (FarmDispatcher d = start(FarmOptions.defaults(), 1);
        HostileClient old = attack(d)) {
      old.send(HostileClient.hello(SECRET, "old-release", 1));
      assertEquals(
          "protocol version 1 is not spoken here (this is 2): use the gantry-launcher of this"
              + " server's release",
          old.refusal(LIMIT));
      assertTrue(old.closedWithin(LIMIT), "closed once its REFUSE is sent");
    }
  }

  @Test
  void aLauncherPastTheJobsLauncherCountIsRefused() throws Exception {
    List<FarmTask> tasks = new ArrayList<>();
    for (long id = 1; id <= 4; id++) {
      tasks.add(
          new FarmTask(
              id,
              TaskPriority.NORMAL,
              "sleep",
              List.of("1"),
              Map.of(),
              List.of(Long.toString(id))));
    }
    try (FarmDispatcher d = start(tasks, FarmOptions.defaults(), 2)) {
      launch(d, 2);
      Await.until("both launchers are in", LIMIT, () -> d.progress().launchers() == 2);
      Process third = launch(d, 1).get(0);
      assertTrue(third.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
      String err = new String(third.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(2, third.exitValue(), "refused: " + err);
      assertTrue(err.contains("all 2 launchers of this job are connected"), err);
      assertEquals(4, d.finished().get(LIMIT.toSeconds(), TimeUnit.SECONDS).size());
    }
  }

  // ---- helpers ----------------------------------------------------------------------------

  private FarmDispatcher start(FarmOptions options, int launchers) throws IOException {
    FarmTask one = new FarmTask(1, TaskPriority.NORMAL, "true", List.of(), Map.of(), List.of("1"));
    return start(List.of(one), options, launchers);
  }

  private FarmDispatcher start(List<FarmTask> tasks, FarmOptions options, int launchers)
      throws IOException {
    return FarmDispatcher.start(
        "flood",
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        SECRET,
        tasks,
        launchers,
        options,
        FarmJournal.open(dir.resolve("journal")));
  }

  private HostileClient attack(FarmDispatcher d) throws IOException {
    HostileClient a = HostileClient.connect(d.address());
    attackers.add(a);
    return a;
  }

  private List<Process> launch(FarmDispatcher d, int n) throws IOException {
    List<Process> started = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString()).directory(dir.toFile());
      pb.environment().put("GANTRY_FARM_DISPATCHER", "127.0.0.1:" + d.address().getPort());
      pb.environment().put("GANTRY_FARM_SECRET", SECRET);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      started.add(p);
      launchers.add(p);
    }
    return started;
  }
}
