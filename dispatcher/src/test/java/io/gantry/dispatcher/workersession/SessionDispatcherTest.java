package io.gantry.dispatcher.workersession;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's dispatcher with real gantry-launcher processes and session-echo-worker
 * (node-programs/build) over loopback TCP: escaping, priorities, a worker killed with -9 in the
 * middle of a message, limits, and close letting the workers go.
 */
class SessionDispatcherTest {
  private static final Path BUILD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build");
  private static final Path LAUNCHER = BUILD.resolve("gantry-launcher");
  private static final Path ECHO = BUILD.resolve("session-echo-worker");
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final List<Process> launchers = new ArrayList<>();

  @BeforeAll
  static void built() {
    assertTrue(Files.isExecutable(LAUNCHER), "build the node programs first: " + LAUNCHER);
    assertTrue(Files.isExecutable(ECHO), "build the node programs first: " + ECHO);
  }

  @AfterEach
  void stopLaunchers() throws InterruptedException {
    for (Process p : launchers) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void answersComeBackInOrderWithAnyTextIntact() throws Exception {
    try (SessionDispatcher d = open(2, SessionOptions.defaults(2))) {
      List<SessionMessage> batch = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        batch.add(new SessionMessage("m" + i, TaskPriority.NORMAL));
      }
      String odd = "two\nlines, a back\\slash, a \r and \u00e9\u20ac";
      batch.add(new SessionMessage(odd, TaskPriority.NORMAL));
      batch.add(new SessionMessage("", TaskPriority.NORMAL));
      List<Long> ids = d.submit(batch);
      Map<Long, Completion> done = takeAll(d, ids.size());
      for (int i = 0; i < 1000; i++) {
        Completion c = done.get(ids.get(i));
        assertEquals(CompletionState.ANSWERED, c.state());
        assertEquals("m" + i, c.output());
        assertEquals(1, c.attempts());
      }
      assertEquals(odd, done.get(ids.get(1000)).output());
      assertEquals("", done.get(ids.get(1001)).output());
      // the first worker may have answered everything before the second one started
      Await.until("both workers run", LIMIT, () -> d.status().workers() == 2);
      assertEquals(1002, d.status().answered());
    }
  }

  @Test
  void highMessagesGoOutBeforeNormalOnes() throws Exception {
    SessionOptions one =
        new SessionOptions(2, 1000, 1 << 20, 4096, 1, 2, 10, Duration.ofSeconds(60));
    try (SessionDispatcher d = open(2, one)) {
      Await.until("both workers run", LIMIT, () -> d.status().workers() == 2);
      List<SessionMessage> batch = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        batch.add(new SessionMessage("sleep 30 normal " + i, TaskPriority.NORMAL));
      }
      for (int i = 0; i < 6; i++) {
        batch.add(new SessionMessage("sleep 30 high " + i, TaskPriority.HIGH));
      }
      d.submit(batch);
      takeAll(d, 12);
      // completion order, per worker: a worker runs one message at a time (window 1)
      Map<Integer, List<String>> byWorker = new HashMap<>();
      for (Completion c : takenInOrder) {
        byWorker.computeIfAbsent(c.worker(), w -> new ArrayList<>()).add(c.output());
      }
      assertEquals(2, byWorker.size(), "both workers took messages: " + byWorker);
      for (List<String> outputs : byWorker.values()) {
        int lastHigh = -1;
        int firstNormal = outputs.size();
        for (int i = 0; i < outputs.size(); i++) {
          if (outputs.get(i).startsWith("high")) {
            lastHigh = i;
          } else {
            firstNormal = Math.min(firstNormal, i);
          }
        }
        assertTrue(lastHigh < firstNormal, "HIGH before NORMAL on each worker: " + outputs);
      }
    }
  }

  @Test
  void aWorkerKilledMidMessageIsRestartedAndTheMessageRunsAgain() throws Exception {
    try (SessionDispatcher d = open(2, SessionOptions.defaults(2))) {
      Await.until("both workers run", LIMIT, () -> d.status().workers() == 2);
      List<Long> ids =
          d.submit(
              List.of(
                  new SessionMessage("sleep 4000 survived", TaskPriority.NORMAL),
                  new SessionMessage("quick", TaskPriority.NORMAL)));
      long sleeper =
          Await.value(
                  "a worker in the middle of its message",
                  LIMIT,
                  SessionDispatcherTest::sleeping,
                  Optional::isPresent)
              .orElseThrow();
      new ProcessBuilder("kill", "-9", Long.toString(sleeper)).start().waitFor();
      Map<Long, Completion> done = takeAll(d, 2);
      Completion again = done.get(ids.get(0));
      assertEquals(CompletionState.ANSWERED, again.state());
      assertEquals("survived", again.output());
      assertEquals(2, again.attempts(), "it ran again");
      assertEquals("quick", done.get(ids.get(1)).output());
      assertEquals(1, d.status().restarts());
      assertEquals(2, d.status().workers(), "the killed worker was started again");
    }
  }

  @Test
  void aLauncherThatFallsSilentHasItsMessagesGoToTheWorkersLeft() throws Exception {
    // its launcher stopped (SIGSTOP), a worker's connection stays up (the kernel acknowledges):
    // only the missing heartbeats tell, as for a host lost with data in flight
    SessionOptions beatFast = SessionOptions.defaults(2).withHeartbeat(Duration.ofMillis(500));
    try (SessionDispatcher d = open(2, beatFast)) {
      Await.until("both workers run", LIMIT, () -> d.status().workers() == 2);
      List<Long> ids =
          d.submit(
              List.of(
                  new SessionMessage("sleep 2000 survived", TaskPriority.NORMAL),
                  new SessionMessage("quick", TaskPriority.NORMAL)));
      long sleeper =
          Await.value(
                  "a worker in the middle of its message",
                  LIMIT,
                  SessionDispatcherTest::sleeping,
                  Optional::isPresent)
              .orElseThrow();
      long launcher = ProcessHandle.of(sleeper).orElseThrow().parent().orElseThrow().pid();
      assertEquals(
          0, new ProcessBuilder("kill", "-STOP", Long.toString(launcher)).start().waitFor());
      Map<Long, Completion> done = takeAll(d, 2);
      Completion again = done.get(ids.get(0));
      assertEquals(CompletionState.ANSWERED, again.state());
      assertEquals("survived", again.output());
      assertEquals(2, again.attempts(), "it ran again, on the worker left");
      assertEquals("quick", done.get(ids.get(1)).output());
      assertEquals(1, d.status().workers(), "the silent launcher's worker is gone");
    }
  }

  @Test
  void aMessageThatKeepsKillingItsWorkerIsLostAfterItsRetries() throws Exception {
    try (SessionDispatcher d = open(1, new SessionOptions(1, 100, 1 << 20, 4096, 4, 1, 5, LIMIT))) {
      List<Long> ids =
          d.submit(
              List.of(
                  new SessionMessage("exit 7", TaskPriority.NORMAL),
                  new SessionMessage("after", TaskPriority.NORMAL)));
      Map<Long, Completion> done = takeAll(d, 2);
      assertEquals(CompletionState.LOST, done.get(ids.get(0)).state());
      assertEquals(2, done.get(ids.get(0)).attempts());
      assertEquals("after", done.get(ids.get(1)).output(), done.toString());
    }
  }

  @Test
  void limitsAreCheckedBeforeAnythingIsQueued() throws Exception {
    try (SessionDispatcher d = open(1, new SessionOptions(1, 3, 1 << 20, 8, 4, 1, 5, LIMIT))) {
      IllegalArgumentException big =
          assertThrows(
              IllegalArgumentException.class,
              () -> d.submit(List.of(new SessionMessage("123456789", TaskPriority.NORMAL))));
      assertTrue(big.getMessage().contains("message 1 of the batch is 9 bytes"), big.getMessage());
      List<SessionMessage> four = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        four.add(new SessionMessage("x", TaskPriority.NORMAL));
      }
      assertThrows(SessionFullException.class, () -> d.submit(four));
      assertEquals(3, d.submit(four.subList(0, 3)).size());
      assertEquals(3, takeAll(d, 3).size());
      assertEquals(1, d.submit(four.subList(0, 1)).size(), "taken completions free the room");
    }
  }

  @Test
  void aProgramThatCannotStartBreaksTheSessionSayingWhy() throws Exception {
    String secret = FarmDispatcher.newSecret();
    try (SessionDispatcher d =
        SessionDispatcher.start(
            "test",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            secret,
            new WorkerProgram(dir.resolve("no-such-worker").toString(), List.of(), Map.of()),
            SessionOptions.defaults(2))) {
      startLaunchers(d, secret, 2);
      List<Long> ids = d.submit(List.of(new SessionMessage("x", TaskPriority.NORMAL)));
      Await.until(
          "the session breaks", LIMIT, () -> d.status().state() == SessionStatus.State.BROKEN);
      assertTrue(
          d.status().problem().contains("could not be started (errno 2)"), d.status().problem());
      List<Completion> left = d.take(10, Duration.ofSeconds(30));
      assertEquals(1, left.size(), "the queued message is given back: " + left);
      assertEquals(ids.get(0), left.get(0).id());
      assertEquals(CompletionState.ABANDONED, left.get(0).state());
      long t0 = System.nanoTime();
      assertTrue(d.take(10, Duration.ofSeconds(60)).isEmpty());
      assertTrue(
          System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(),
          "a broken session with nothing left answers at once, not at the timeout");
      assertThrows(
          SessionFullException.class,
          () -> d.submit(List.of(new SessionMessage("y", TaskPriority.NORMAL))));
    }
  }

  @Test
  void aBatchPastTheByteBudgetIsRefusedWhole() throws Exception {
    try (SessionDispatcher d = open(1, new SessionOptions(1, 1000, 100, 64, 4, 1, 5, LIMIT))) {
      List<SessionMessage> eighty = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        eighty.add(new SessionMessage("0123456789", TaskPriority.NORMAL));
      }
      assertEquals(8, d.submit(eighty).size());
      SessionFullException over =
          assertThrows(SessionFullException.class, () -> d.submit(eighty.subList(0, 3)));
      assertTrue(over.getMessage().contains("limit of 100 bytes"), over.getMessage());
      assertEquals(8, takeAll(d, 8).size());
      assertEquals(8, d.submit(eighty).size(), "taken answers free the budget");
      assertEquals(8, takeAll(d, 8).size());
    }
  }

  @Test
  void closeEndsTheLaunchersAndTheirWorkers() throws Exception {
    SessionDispatcher d = open(2, SessionOptions.defaults(2));
    Await.until("both workers run", LIMIT, () -> d.status().workers() == 2);
    d.submit(List.of(new SessionMessage("pid", TaskPriority.NORMAL)));
    long pid = Long.parseLong(takeAll(d, 1).values().iterator().next().output());
    d.close();
    for (Process p : launchers) {
      assertTrue(p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS), "the launcher ended");
      assertEquals(0, p.exitValue(), "told DONE, it exits 0");
    }
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "worker gone");
    assertEquals(SessionStatus.State.CLOSED, d.status().state());
    assertThrows(
        SessionFullException.class,
        () -> d.submit(List.of(new SessionMessage("late", TaskPriority.NORMAL))));
  }

  private final List<Completion> takenInOrder = new ArrayList<>();

  private Map<Long, Completion> takeAll(SessionDispatcher d, int n) throws InterruptedException {
    Map<Long, Completion> done = new HashMap<>();
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (done.size() < n && System.nanoTime() < deadline) {
      for (Completion c : d.take(1000, Duration.ofSeconds(1))) {
        done.put(c.id(), c);
        takenInOrder.add(c);
      }
    }
    assertEquals(n, done.size(), "completions taken in time: " + d.status());
    return done;
  }

  /** The pid of the session-echo-worker in the middle of "sleep 4000 survived", if any. */
  private static Optional<Long> sleeping() throws IOException {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.toList()) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          if (Files.readString(p.resolve("comm")).strip().equals("s:survived")) {
            return Optional.of(Long.parseLong(name));
          }
        } catch (IOException gone) {
          // the process ended while we looked
        }
      }
    }
    return Optional.empty();
  }

  private SessionDispatcher open(int workers, SessionOptions options) throws IOException {
    String secret = FarmDispatcher.newSecret();
    SessionDispatcher d =
        SessionDispatcher.start(
            "test",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            secret,
            new WorkerProgram(ECHO.toString(), List.of(), Map.of()),
            options);
    startLaunchers(d, secret, workers);
    return d;
  }

  private void startLaunchers(SessionDispatcher d, String secret, int workers) throws IOException {
    for (int i = 0; i < workers; i++) {
      ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString()).directory(dir.toFile());
      pb.environment().put("GANTRY_FARM_DISPATCHER", "127.0.0.1:" + d.address().getPort());
      pb.environment().put("GANTRY_FARM_SECRET", secret);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(ProcessBuilder.Redirect.INHERIT);
      launchers.add(pb.start());
    }
  }
}
