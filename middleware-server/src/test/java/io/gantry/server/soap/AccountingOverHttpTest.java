package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.AccountingLine;
import io.gantry.server.api.AccountingReport;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Accounting and quotas seen from clients (docs/operations.md, "Accounting and quotas"): a job run
 * under gantry-stepd is charged to its JobProject with its cores, wall time and CPU time, which an
 * administrator reads with getAccounting and a user may not; a submission over a user's or a
 * project's quota is refused with a fault naming the quota and its use.
 */
class AccountingOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(60);
  static final Path STEPD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-stepd");

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement admin;
  static JobManagement alice;
  static JobManagement bob;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .secure()
            .settings(
                Map.of(
                    "jobs.supervisor", STEPD.toString(),
                    "quota.user.bob.concurrent-jobs", "1",
                    "quota.project.desk-z.concurrent-jobs", "1"))
            .account(TestAccount.admin("root-admin"))
            .account(TestAccount.user("alice"))
            .account(TestAccount.user("bob"))
            .start();
    admin = client("root-admin");
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

  @Test
  void aJobsCoresWallAndCpuTimeAreChargedToItsProjectForAdministratorsOnly() throws Exception {
    Instant from = Instant.now().minusSeconds(1);
    String busy =
        alice.submitJob(
            TestJobs.job("busy")
                .project("desk-a")
                .shell("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done", 60)
                .document());
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, busy, LIMIT).state);
    Instant to = Instant.now().plusSeconds(1);

    AccountingReport report = admin.getAccounting(from.toString(), to.toString(), "project");
    assertEquals("project", report.by);
    AccountingLine desk =
        report.lines.stream()
            .filter(l -> "desk-a".equals(l.key))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no line for desk-a in " + report.lines));
    assertEquals(1, desk.jobs);
    assertTrue(desk.coreSeconds > 0, "core-seconds: " + desk.coreSeconds);
    assertEquals(1, desk.jobsWithCpuTime, "gantry-stepd reports the CPU time");
    assertTrue(
        desk.cpuSeconds > 0.05 && desk.cpuSeconds <= desk.coreSeconds + 1,
        "CPU seconds of a busy loop: " + desk.cpuSeconds + " of " + desk.coreSeconds);

    AccessDeniedFault denied =
        assertThrows(
            AccessDeniedFault.class,
            () -> alice.getAccounting(from.toString(), to.toString(), "user"));
    assertTrue(denied.getMessage().contains("only administrators"), denied.getMessage());
  }

  @Test
  void submissionsOverAUsersOrAProjectsQuotaAreRefusedNamingItAndItsUse() throws Exception {
    String blocker =
        bob.submitJob(
            TestJobs.job("blocker")
                .project("desk-z")
                .shell("while [ ! -e release ]; do sleep 0.1; done", 60)
                .document());
    await(bob, blocker, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    try {
      LimitExceededFault user =
          assertThrows(
              LimitExceededFault.class,
              () -> bob.submitJob(TestJobs.job("second").shell("true", 60).document()));
      assertEquals("QUOTA_EXCEEDED", user.getFaultInfo().code);
      assertTrue(
          user.getMessage().contains("quota quota.user.bob.concurrent-jobs is 1")
              && user.getMessage().contains("user bob has 1 unfinished jobs"),
          user.getMessage());

      LimitExceededFault project =
          assertThrows(
              LimitExceededFault.class,
              () ->
                  alice.submitJob(
                      TestJobs.job("z").project("desk-z").shell("true", 60).document()));
      assertTrue(
          project.getMessage().contains("quota quota.project.desk-z.concurrent-jobs is 1")
              && project.getMessage().contains("project desk-z has 1 unfinished jobs"),
          project.getMessage());

      InvalidJobFault badProject =
          assertThrows(
              InvalidJobFault.class,
              () ->
                  alice.submitJob(
                      TestJobs.job("bad").project("no spaces").shell("true", 60).document()));
      assertTrue(
          badProject.getFaultInfo().problems.stream()
              .anyMatch(p -> p.message.contains("'no spaces' is no project name")),
          badProject.getFaultInfo().problems.toString());
    } finally {
      Files.createFile(server.jobDirectory(blocker).resolve("release"));
    }
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(bob, blocker, LIMIT).state);
  }
}
