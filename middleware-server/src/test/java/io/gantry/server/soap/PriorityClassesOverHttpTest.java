package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priority classes seen from clients (docs/operations.md, "Priority classes"): on one slot, an
 * urgent job starts as soon as the running job ends, ahead of a normal backlog; within the normal
 * class a user with one job is not kept waiting behind another user's earlier jobs; a class the
 * user may not use is refused at submission, naming it.
 */
class PriorityClassesOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement alice;
  static JobManagement bob;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .secure()
            .settings(
                Map.of(
                    "slots.total", "1",
                    "queue.classes", "urgent,normal,batch",
                    "queue.urgent.users", "alice"))
            .account(TestAccount.user("alice"))
            .account(TestAccount.user("bob"))
            .start();
    alice = client("alice");
    bob = client("bob");
  }

  private static JobManagement client(String user) {
    return JobManagementClients.of(
        server, new Login.Basic(user, TestAccount.defaultPassword(user)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String bobsJob;

  private static JobManagement owner(String id) {
    return id.equals(bobsJob) ? bob : alice;
  }

  @Test
  void urgentGoesFirstThenUsersTakeTurnsWithinTheNormalClass() throws Exception {
    String blocker =
        alice.submitJob(
            TestJobs.job("blocker")
                .shell("while [ ! -e release ]; do sleep 0.1; done", 60)
                .document());
    await(alice, blocker, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");

    Map<String, String> names = new LinkedHashMap<>(); // id -> name, in submission order
    names.put(blocker, "blocker");
    for (String name : List.of("alice-1", "alice-2", "alice-3")) {
      names.put(alice.submitJob(TestJobs.job(name).shell("true", 60).document()), name);
    }
    bobsJob = bob.submitJob(TestJobs.job("bob-1").shell("true", 60).document());
    names.put(bobsJob, "bob-1");
    names.put(
        alice.submitJob(TestJobs.job("urgent").queue("urgent").shell("true", 60).document()),
        "urgent");
    for (String id : names.keySet()) {
      if (!id.equals(blocker)) {
        JobStateName state = owner(id).getJobStatus(id).state;
        // not started: queued, or staging ahead of its slot (a submission is answered once
        // stored, so the job may be seen between QUEUED and STAGED)
        assertTrue(
            state == JobStateName.QUEUED
                || state == JobStateName.STAGING_IN
                || state == JobStateName.STAGED,
            names.get(id) + " waits for the slot: " + state);
      }
    }

    Files.createFile(server.jobDirectory(blocker).resolve("release"));
    List<String> ids = new ArrayList<>(names.keySet());
    for (String id : ids) {
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(owner(id), id, LIMIT).state, names.get(id));
    }
    Map<String, java.time.Instant> started = new java.util.HashMap<>();
    for (String id : ids) {
      started.put(id, owner(id).getJobStatus(id).started);
    }
    ids.sort(Comparator.comparing(started::get));
    assertEquals(
        List.of("blocker", "urgent", "bob-1", "alice-1", "alice-2", "alice-3"),
        ids.stream().map(names::get).toList(),
        "urgent at the next free slot; bob's one job before alice's second; alice's in order");
  }

  @Test
  void aClassTheUserMayNotUseIsRefusedNamingIt() {
    InvalidJobFault refused =
        assertThrows(
            InvalidJobFault.class,
            () -> bob.submitJob(TestJobs.job("x").queue("urgent").shell("true", 60).document()));
    List<String> problems = refused.getFaultInfo().problems.stream().map(p -> p.message).toList();
    assertTrue(
        problems.stream().anyMatch(m -> m.contains("'urgent'") && m.contains("bob")),
        problems::toString);
  }
}
