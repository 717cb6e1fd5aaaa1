package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.ValidationResult;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dependencies and holds as a Slurm user expects them ({@code --dependency=afterok/afterany},
 * {@code --hold}, {@code scontrol hold/release}), against a real server: a waiting job holds no
 * slot and stages nothing, says what it waits for, and fails when what it waits for can never
 * happen.
 */
class JobDependenciesOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(60);
  static final String PASSWORD = "dependencies-test-password";

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement alice;
  static JobManagement bob;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("slots.total", "2");
    settings.put("staging.parallelism", "1");
    server =
        GantryTestServer.builder(dir)
            .secure()
            .settings(settings)
            .account(new TestAccount("alice", PASSWORD, false, null))
            .account(new TestAccount("bob", PASSWORD, false, null))
            .start();
    alice = JobManagementClients.of(server, new Login.Basic("alice", PASSWORD));
    bob = JobManagementClients.of(server, new Login.Basic("bob", PASSWORD));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A job that runs until the file {@code release} appears in its directory. */
  static TestJobs blocking(String name) {
    return TestJobs.job(name).shell("while [ ! -e release ]; do sleep 0.1; done", 60);
  }

  static void release(String id) throws Exception {
    Files.createFile(server.jobDirectory(id).resolve("release"));
  }

  @Test
  void aJobAfterAnotherWaitsStagingNothingAndStartsOnlyOnceItSucceeded() throws Exception {
    String first = alice.submitJob(blocking("first").document());
    await(alice, first, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    String second = alice.submitJob(RiskDatabase.valuationJob("second").after(first).document());

    JobStatusInfo waiting = alice.getJobStatus(second);
    assertEquals(JobStateName.QUEUED, waiting.state);
    assertEquals("Dependency(after:" + first + ")", waiting.reason);
    assertEquals(
        "Dependency(after:" + first + ")",
        alice.listJobs(java.util.List.of(JobStateName.QUEUED), 0, 10, false).jobs.stream()
            .filter(j -> j.jobId.equals(second))
            .findFirst()
            .orElseThrow()
            .reason,
        "listJobs says it too");
    // one of two slots is free and nothing else waits: only the dependency keeps it back
    Thread.sleep(500);
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(second).state);
    assertTrue(alice.getJobResults(second).stagedIn.isEmpty(), "nothing staged while waiting");

    release(first);
    JobStatusInfo firstEnd = awaitFinal(alice, first, LIMIT);
    JobStatusInfo secondEnd = awaitFinal(alice, second, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, firstEnd.state);
    assertEquals(JobStateName.SUCCEEDED, secondEnd.state, secondEnd.failureReason);
    assertNull(secondEnd.reason);
    assertFalse(secondEnd.started.isBefore(firstEnd.finished), "started after the first ended");
    assertEquals(1, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + second + "'"));
  }

  @Test
  void aJobAfterAFailedJobFailsAsNeverSatisfiedWhileAfterAnyRuns() throws Exception {
    String failing = alice.submitJob(TestJobs.job("failing").posix(60, "/bin/false").document());
    String after =
        alice.submitJob(TestJobs.job("after").shell("true", 60).after(failing).document());
    String afterAny =
        alice.submitJob(TestJobs.job("any").shell("true", 60).afterAny(failing).document());
    // a job that waits on the never-satisfied one fails in turn, and names it
    String chained =
        alice.submitJob(TestJobs.job("chained").shell("true", 60).after(after).document());

    assertEquals(JobStateName.FAILED, awaitFinal(alice, failing, LIMIT).state);
    JobStatusInfo never = awaitFinal(alice, after, LIMIT);
    assertEquals(JobStateName.FAILED, never.state);
    assertTrue(
        never.failureReason.startsWith(
            "DependencyNeverSatisfied: job " + failing + " ended FAILED"),
        never.failureReason);
    assertNull(never.started, "its program never ran");
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, afterAny, LIMIT).state);
    JobStatusInfo chainedEnd = awaitFinal(alice, chained, LIMIT);
    assertEquals(JobStateName.FAILED, chainedEnd.state);
    assertTrue(chainedEnd.failureReason.contains(after), chainedEnd.failureReason);
  }

  @Test
  void aHeldJobWaitsUntilReleasedAndOnlyAQueuedJobCanBeHeld() throws Exception {
    String held = alice.submitJob(TestJobs.job("held").shell("true", 60).held().document());
    JobStatusInfo status = alice.getJobStatus(held);
    assertEquals(JobStateName.QUEUED, status.state);
    assertEquals("JobHeldUser (held by alice)", status.reason);

    // held on the way: a second job queued behind a stage-in that cannot finish yet
    Path gate = dir.resolve("stage-in-gate");
    String staging =
        alice.submitJob(
            RiskDatabase.valuationJob("staging", RiskDatabase.positionsQueryHeldUntil(gate))
                .document());
    await(alice, staging, LIMIT, s -> s.state == JobStateName.STAGING_IN, "STAGING_IN");
    String queued = alice.submitJob(RiskDatabase.valuationJob("queued").document());
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(queued).state, "behind the stage-in");
    JobStatusInfo heldNow = alice.holdJob(queued);
    assertEquals("JobHeldUser (held by alice)", heldNow.reason);
    JobStateFault refused = assertThrows(JobStateFault.class, () -> alice.holdJob(staging));
    assertTrue(refused.getMessage().contains("STAGING_IN"), refused.getMessage());
    assertThrows(JobStateFault.class, () -> alice.holdJob(queued), "held already");

    Files.createFile(gate);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, staging, LIMIT).state);
    Thread.sleep(500); // the slot is free: only the hold keeps them back
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(queued).state);
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(held).state);

    assertNull(alice.releaseJob(held).reason);
    alice.releaseJob(queued);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, held, LIMIT).state);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, queued, LIMIT).state);
    JobStateFault notHeld = assertThrows(JobStateFault.class, () -> alice.releaseJob(held));
    assertTrue(notHeld.getMessage().contains("is not held"), notHeld.getMessage());
  }

  @Test
  void anotherUsersJobIsNotFoundAsADependencyNorToHoldOrRelease() throws Exception {
    String bobs = bob.submitJob(TestJobs.job("bob's").shell("true", 60).held().document());
    InvalidJobFault refused =
        assertThrows(
            InvalidJobFault.class,
            () -> alice.submitJob(TestJobs.job("nosy").shell("true", 60).after(bobs).document()));
    ValidationResult report = refused.getFaultInfo();
    assertEquals(
        "no job " + bobs + " for user alice",
        report.problems.stream()
            .filter(p -> p.severity.equals("ERROR"))
            .findFirst()
            .orElseThrow()
            .message,
        "worded as every other unknown job");
    ValidationResult validated =
        alice.validateJob(TestJobs.job("nosy").shell("true", 60).afterAny(bobs).document());
    assertFalse(validated.valid);
    assertThrows(JobNotFoundFault.class, () -> alice.releaseJob(bobs));
    assertThrows(JobNotFoundFault.class, () -> alice.holdJob(bobs));
    bob.cancelJob(bobs);
    assertEquals(JobStateName.CANCELLED, bob.getJobStatus(bobs).state);
  }

  @Test
  void waitingJobsKeepWhatTheyWaitForAcrossACrashOfTheServer() throws Exception {
    io.gantry.testing.server.GantryTestServerBuilder builder =
        GantryTestServer.builder(dir.resolve("restart")).name("restart");
    String held;
    String after;
    try (GantryTestServer first = builder.start()) {
      JobManagement client = JobManagementClients.of(first);
      held = client.submitJob(TestJobs.job("held").shell("true", 60).held().document());
      after = client.submitJob(TestJobs.job("after").shell("true", 60).after(held).document());
      assertEquals("Dependency(after:" + held + ")", client.getJobStatus(after).reason);
      first.killHard();
    }
    try (GantryTestServer second = builder.start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals("JobHeldUser (held by local)", client.getJobStatus(held).reason);
      assertEquals("Dependency(after:" + held + ")", client.getJobStatus(after).reason);
      client.releaseJob(held);
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, held, LIMIT).state);
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, after, LIMIT).state);
    }
  }
}
