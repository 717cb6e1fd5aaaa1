package io.gantry.server.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.ScheduleInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.ScheduleClock;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack on reused user names, on a real server with the schedules' test clock: carol (OS
 * account gantry-test-alice) keeps an every-minute schedule; an administrator removes carol and
 * adds a different carol (OS account gantry-test-bob). Nothing of the old carol runs under the new
 * account, and the new carol can neither see nor act on the old carol's jobs or schedules. The old
 * jobs stay for the audit trail, shown to administrators as the removed user's.
 */
class ReusedUserNameAttackTest {
  private static final Duration FIRING = Duration.ofSeconds(30);
  private static final Instant START = Instant.parse("2026-11-23T12:00:30Z");
  private static final String NEW_PASSWORD = "the other carol's long password";

  @TempDir static Path dir;
  static ScheduleClock clock;
  static GantryTestServer server;
  static JobManagement admin;
  static JobManagement dan;

  @BeforeAll
  static void start() throws Exception {
    clock = ScheduleClock.at(dir, START);
    server =
        GantryTestServer.builder(dir)
            .secure()
            .demo(20) // the size the most demo tests use: one demo template for them all
            .scheduleClock(clock)
            .account(TestAccount.admin("boss"))
            .start();
    admin = client("boss", TestAccount.defaultPassword("boss"));
    // the other accounts over SOAP, as the new carol below: a `gantry-server user add` JVM each
    // took seconds
    admin.addUser("dan", TestAccount.defaultPassword("dan"), "user", null);
    admin.addUser("carol", TestAccount.defaultPassword("carol"), "user", "gantry-test-alice");
    dan = client("dan", TestAccount.defaultPassword("dan"));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static JobManagement client(String user, String password) {
    return JobManagementClients.of(server, new Login.Basic(user, password));
  }

  private static ScheduleInfo everyMinute(JobManagement client, String name) throws Exception {
    return client.addSchedule(
        name,
        "* * * * *",
        "UTC",
        null,
        JobTemplatesOverHttpTest.document(
            SchedulesOverHttpTest.NIGHTLY, Map.of("business_date", "${schedule.date}")),
        null);
  }

  private static ScheduleInfo awaitRun(JobManagement client, String name, String time) {
    Instant at = Instant.parse(time);
    return Await.value(
        "schedule " + name + " to run for " + time,
        FIRING,
        () ->
            client.listSchedules(false).stream()
                .filter(s -> s.name.equals(name))
                .findFirst()
                .orElseThrow(),
        s -> at.equals(s.lastTime) && s.lastJobId != null,
        s -> "last time " + s.lastTime + ", job " + s.lastJobId + ", note " + s.lastNote);
  }

  /** An empty list comes over SOAP as no element at all, which the client reads as null. */
  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  @Test
  void aRemovedUsersScheduleNeverFiresForANewUserOfTheSameName() throws Exception {
    JobManagement oldCarol = client("carol", TestAccount.defaultPassword("carol"));
    everyMinute(oldCarol, "every-minute");
    everyMinute(dan, "witness"); // shows that the scheduler has looked at each later minute
    clock.set(Instant.parse("2026-11-23T12:01:05Z"));
    String oldJob = awaitRun(oldCarol, "every-minute", "2026-11-23T12:01:00Z").lastJobId;
    String oldToken = oldCarol.issueSessionToken("laptop").tokenId;

    admin.removeUser("carol");
    admin.addUser("carol", NEW_PASSWORD, "user", "gantry-test-bob");
    JobManagement newCarol = client("carol", NEW_PASSWORD);

    for (String minute : List.of("12:02", "12:03", "12:04")) {
      clock.set(Instant.parse("2026-11-23T" + minute + ":05Z"));
      awaitRun(dan, "witness", "2026-11-23T" + minute + ":00Z");
    }

    assertTrue(
        orEmpty(newCarol.listSchedules(false)).isEmpty(), "no schedule of the old carol is hers");
    assertFalse(
        admin.listSchedules(true).stream().anyMatch(s -> s.name.equals("every-minute")),
        "removed with the user");
    List<JobStatusInfo> everyJob = admin.listJobs(List.of(), 0, 100, true).jobs;
    assertFalse(
        everyJob.stream().anyMatch(j -> "carol".equals(j.owner)),
        "no job was submitted as the new carol: " + everyJob.stream().map(j -> j.owner).toList());
    assertEquals(
        List.of(oldJob),
        everyJob.stream()
            .filter(j -> "carol (removed user)".equals(j.owner))
            .map(j -> j.jobId)
            .toList(),
        "the old carol's job is kept for administrators, as the removed user's");

    assertEquals(0, newCarol.listJobs(List.of(), 0, 100, false).total);
    assertThrows(JobNotFoundFault.class, () -> newCarol.getJobStatus(oldJob));
    assertThrows(JobNotFoundFault.class, () -> newCarol.getJobAudit(oldJob));
    assertThrows(Exception.class, () -> newCarol.cancelJob(oldJob));
    assertThrows(Exception.class, () -> newCarol.holdJob(oldJob));
    assertTrue(orEmpty(newCarol.listSessionTokens(false)).isEmpty());
    assertFalse(newCarol.revokeSessionToken(oldToken));
  }
}
