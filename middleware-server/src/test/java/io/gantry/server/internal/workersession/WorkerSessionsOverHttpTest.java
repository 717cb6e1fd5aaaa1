package io.gantry.server.internal.workersession;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.WorkerCompletion;
import io.gantry.server.api.WorkerCompletions;
import io.gantry.server.api.WorkerMessage;
import io.gantry.server.api.WorkerSessionInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions of long-lived workers through a real gantry-server (local backend, launchers and workers
 * sandboxed under the user's OS account, gantry-launcher and session-echo-worker from
 * node-programs/build): a batch answered to its owner in priority order, another user who can
 * neither see nor feed the session, a worker killed with -9 in the middle of a message, and close
 * letting the workers go.
 */
class WorkerSessionsOverHttpTest {
  private static final Path BUILD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build");
  private static final Path ECHO = BUILD.resolve("session-echo-worker");
  private static final Duration LIMIT = Duration.ofMinutes(1);

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement alice;
  static JobManagement bob;
  static JobManagement admin;

  @BeforeAll
  static void start() throws Exception {
    assertTrue(Files.isExecutable(ECHO), "build the node programs first: " + ECHO);
    Map<String, String> settings = new HashMap<>();
    settings.put("jobs.allowed-executable-roots", BUILD.toString());
    settings.put("application.echo.executable", ECHO.toString());
    settings.put("application.echo.description", "answers each message with itself");
    settings.put("worker-session.max-per-user", "2");
    // jobs under gantry-stepd, as a production server runs them; sessions never are (they live in
    // the server's memory), and must work beside it
    settings.put("jobs.supervisor", BUILD.resolve("gantry-stepd").toString());
    server =
        GantryTestServer.builder(dir)
            .secure()
            .settings(settings)
            .account(TestAccount.user("alice"))
            .account(TestAccount.user("bob"))
            .account(TestAccount.admin("carol"))
            .start();
    alice = client("alice");
    bob = client("bob");
    admin = client("carol");
  }

  private static JobManagement client(String user) {
    return JobManagementClients.of(
        server, new Login.Basic(user, TestAccount.defaultPassword(user)));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aBatchIsAnsweredToItsOwnerHighPriorityFirst() throws Exception {
    // window 1: a worker holds one message at a time, so the order it answers in is the queue's
    WorkerSessionInfo s = alice.openWorkerSession("echo", null, List.of(), 2, 1);
    try {
      assertEquals("alice", s.owner);
      assertEquals("echo", s.program);
      Await.until(
          "both workers run", LIMIT, () -> alice.getWorkerSession(s.sessionId).runningWorkers == 2);
      List<WorkerMessage> batch = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        batch.add(message("sleep 40 normal " + i, null));
      }
      for (int i = 0; i < 6; i++) {
        batch.add(message("sleep 40 high " + i, "high"));
      }
      batch.add(message("a line\nwith a break and a \\ backslash", "normal"));
      List<Long> ids = alice.submitWorkerMessages(s.sessionId, batch);
      assertEquals(13, ids.size());
      List<WorkerCompletion> taken = takeAll(alice, s.sessionId, 13);
      Map<Integer, List<String>> byWorker = new HashMap<>();
      for (WorkerCompletion c : taken) {
        assertEquals("answered", c.state, c.output);
        byWorker.computeIfAbsent(c.worker, w -> new ArrayList<>()).add(c.output);
      }
      assertEquals(2, byWorker.size(), "both workers answered: " + byWorker);
      for (List<String> answers : byWorker.values()) {
        int lastHigh = -1;
        int firstOther = answers.size();
        for (int i = 0; i < answers.size(); i++) {
          if (answers.get(i).startsWith("high")) {
            lastHigh = i;
          } else {
            firstOther = Math.min(firstOther, i);
          }
        }
        assertTrue(lastHigh < firstOther, "high before normal on each worker: " + answers);
      }
      WorkerCompletion odd =
          taken.stream().filter(c -> c.messageId == ids.get(12)).findFirst().orElseThrow();
      assertEquals("a line\nwith a break and a \\ backslash", odd.output);
      assertEquals(13, alice.getWorkerSession(s.sessionId).answered);
    } finally {
      alice.closeWorkerSession(s.sessionId);
    }
  }

  @Test
  void anotherUserCanNeitherSeeNorFeedASession() throws Exception {
    WorkerSessionInfo s = alice.openWorkerSession(null, ECHO.toString(), List.of(), 1, null);
    try {
      for (SOAPFaultException e :
          List.of(
              assertThrows(SOAPFaultException.class, () -> bob.getWorkerSession(s.sessionId)),
              assertThrows(
                  SOAPFaultException.class,
                  () -> bob.submitWorkerMessages(s.sessionId, List.of(message("x", null)))),
              assertThrows(
                  SOAPFaultException.class, () -> bob.takeWorkerCompletions(s.sessionId, 10, 0)),
              assertThrows(SOAPFaultException.class, () -> bob.closeWorkerSession(s.sessionId)))) {
        assertTrue(
            e.getMessage().contains("no worker session " + s.sessionId + " for user bob"),
            e.getMessage());
      }
      SOAPFaultException none =
          assertThrows(SOAPFaultException.class, () -> bob.getWorkerSession("nosuchsession"));
      assertTrue(none.getMessage().contains("no worker session nosuchsession for user bob"));
      assertEquals(List.of(), listOrEmpty(bob.listWorkerSessions(false)), "bob has none");
      assertThrows(AccessDeniedFault.class, () -> bob.listWorkerSessions(true));
      assertTrue(
          listOrEmpty(admin.listWorkerSessions(true)).stream()
              .anyMatch(x -> x.sessionId.equals(s.sessionId)),
          "an administrator sees every session");
      // the owner's session is intact: nothing bob tried reached it
      List<Long> ids = alice.submitWorkerMessages(s.sessionId, List.of(message("mine", null)));
      List<WorkerCompletion> taken = takeAll(alice, s.sessionId, 1);
      assertEquals(ids.get(0), taken.get(0).messageId);
      assertEquals("mine", taken.get(0).output);
      assertEquals(1, alice.getWorkerSession(s.sessionId).answered);
      // limits: a second session is allowed, a third is not (worker-session.max-per-user=2)
      WorkerSessionInfo second = alice.openWorkerSession("echo", null, List.of(), 1, null);
      try {
        LimitExceededFault third =
            assertThrows(
                LimitExceededFault.class,
                () -> alice.openWorkerSession("echo", null, List.of(), 1, null));
        assertTrue(third.getMessage().contains("worker-session.max-per-user"), third.getMessage());
      } finally {
        alice.closeWorkerSession(second.sessionId);
      }
      SOAPFaultException outside =
          assertThrows(
              SOAPFaultException.class,
              () -> alice.openWorkerSession(null, "/opt/elsewhere/pricer", List.of(), 1, null));
      assertTrue(outside.getMessage().contains("jobs.allowed-executable-roots"));
    } finally {
      alice.closeWorkerSession(s.sessionId);
    }
  }

  @Test
  void aWorkerKilledMidMessageRunsTheMessageAgainAndCloseFreesTheWorkers() throws Exception {
    WorkerSessionInfo s = alice.openWorkerSession("echo", null, List.of(), 2, null);
    Await.until(
        "both workers run", LIMIT, () -> alice.getWorkerSession(s.sessionId).runningWorkers == 2);
    List<Long> ids =
        alice.submitWorkerMessages(
            s.sessionId,
            List.of(message("sleep 4000 http-survived", null), message("quick", null)));
    long sleeper =
        Await.value(
                "a worker in the middle of its message",
                LIMIT,
                () -> processNamed("s:http-survived"),
                Optional::isPresent)
            .orElseThrow();
    assertNotEquals(0, uidOf(sleeper), "the worker runs under the user's OS account, not root");
    new ProcessBuilder("kill", "-9", Long.toString(sleeper)).start().waitFor();
    Map<Long, WorkerCompletion> done = new HashMap<>();
    takeAll(alice, s.sessionId, 2).forEach(c -> done.put(c.messageId, c));
    assertEquals("answered", done.get(ids.get(0)).state);
    assertEquals("http-survived", done.get(ids.get(0)).output);
    assertEquals(2, done.get(ids.get(0)).attempts, "it ran again");
    assertEquals("quick", done.get(ids.get(1)).output);
    WorkerSessionInfo after = alice.getWorkerSession(s.sessionId);
    assertEquals(1, after.restarts);
    assertEquals(2, after.runningWorkers, "the killed worker was started again");

    // both workers busy with a message each (a short queue is shared evenly), then close
    alice.submitWorkerMessages(
        s.sessionId,
        List.of(message("sleep 1500 http-a", null), message("sleep 1500 http-b", null)));
    List<Long> processes = new ArrayList<>();
    for (String name : List.of("s:http-a", "s:http-b")) {
      long worker =
          Await.value(
                  "worker busy with " + name, LIMIT, () -> processNamed(name), Optional::isPresent)
              .orElseThrow();
      processes.add(worker);
      processes.add(parentOf(worker)); // its launcher
    }
    WorkerSessionInfo closed = alice.closeWorkerSession(s.sessionId);
    assertEquals("closed", closed.state);
    for (long pid : processes) {
      assertFalse(
          ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
          "worker or launcher " + pid + " ended with the session");
    }
    assertThrows(SOAPFaultException.class, () -> alice.getWorkerSession(s.sessionId));
    assertFalse(
        Files.exists(server.jobDirectory("worker-session-" + s.sessionId)),
        "the session's directory is gone");
  }

  /** CXF answers an empty sequence as null. */
  private static <T> List<T> listOrEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static WorkerMessage message(String input, String priority) {
    WorkerMessage m = new WorkerMessage();
    m.input = input;
    m.priority = priority;
    return m;
  }

  private static List<WorkerCompletion> takeAll(JobManagement client, String session, int n) {
    List<WorkerCompletion> taken = new ArrayList<>();
    long deadline = System.nanoTime() + Await.scaled(LIMIT).toNanos();
    while (taken.size() < n && System.nanoTime() < deadline) {
      WorkerCompletions got = client.takeWorkerCompletions(session, 1000, 5);
      taken.addAll(listOrEmpty(got.completions));
    }
    assertEquals(n, taken.size(), "completions in time");
    return taken;
  }

  /** The pid of the process whose name (/proc/PID/comm) is {@code name}, if any. */
  private static Optional<Long> processNamed(String name) throws IOException {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.toList()) {
        if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          if (Files.readString(p.resolve("comm")).strip().equals(name)) {
            return Optional.of(Long.parseLong(p.getFileName().toString()));
          }
        } catch (IOException gone) {
          // ended while we looked
        }
      }
    }
    return Optional.empty();
  }

  private static long parentOf(long pid) throws IOException {
    return Long.parseLong(statusField(pid, "PPid:"));
  }

  private static int uidOf(long pid) throws IOException {
    return Integer.parseInt(statusField(pid, "Uid:"));
  }

  private static String statusField(long pid, String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith(field)) {
        return line.split("\\s+")[1];
      }
    }
    throw new IOException("no " + field + " line for " + pid);
  }
}
