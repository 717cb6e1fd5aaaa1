package io.gantry.server.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.MissedRunsName;
import io.gantry.server.api.ScheduleInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.ScheduleClock;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schedules on a real server whose schedules read a clock the test moves (the setting
 * schedules.test-clock-file): jobs submitted at each time as the owner with the scheduled date,
 * pause and resume, one user's schedules invisible to another, and missed times across a restart.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchedulesOverHttpTest {
  private static final Duration FIRING = Duration.ofSeconds(30);
  private static final String ADMIN_PASSWORD = "the schedules test's admin password";

  /** A Monday; the demo's market history ends on the Friday before. */
  private static final Instant MONDAY_NOON = Instant.parse("2026-11-23T12:00:00Z");

  static final String NIGHTLY =
      """
      <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                          xmlns:gx="urn:gantry:jsdl:ext:1">
        <jsdl:JobDescription>
          <jsdl:JobIdentification><jsdl:JobName>nightly-${portfolio}-${business_date}</jsdl:JobName></jsdl:JobIdentification>
          <gx:Parameters>
            <gx:Parameter name="business_date" type="date"/>
            <gx:Parameter name="portfolio" default="DESK-1"/>
          </gx:Parameters>
          <gx:PreDataStaging>
            <gx:SQLQueryDataStaging>
              <gx:DataSourceRef>demo-market</gx:DataSourceRef>
              <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
              <gx:SQLStatement>SELECT factor_id, level FROM factor_history WHERE as_of &lt;= ${business_date} AND factor_id IN (SELECT factor_id FROM position WHERE portfolio_id = ${portfolio})</gx:SQLStatement>
              <gx:SQLOutputFileName>levels.csv</gx:SQLOutputFileName>
            </gx:SQLQueryDataStaging>
          </gx:PreDataStaging>
        </jsdl:JobDescription>
      </jsdl:JobDefinition>
      """;

  @TempDir static Path dir;
  static ScheduleClock clock;
  static GantryTestServerBuilder builder;
  static GantryTestServer server;
  static JobManagement alice;
  static JobManagement bob;
  static JobManagement admin;

  @BeforeAll
  static void start() throws Exception {
    clock = ScheduleClock.at(dir, MONDAY_NOON);
    Path holidays = dir.resolve("holidays.dates");
    Files.writeString(holidays, "# the calendar test 5 names\n2026-12-08 a holiday\n");
    // the first administrator, made by the server's first start: a `gantry-server user add` JVM
    // before it took seconds
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    builder =
        GantryTestServer.builder(dir)
            .secure()
            .demo(20) // the size the most demo tests use: one demo template for them all
            .scheduleClock(clock)
            .setting("calendar.bank.file", holidays.toString())
            .setting("admin.password-file", adminPassword.toString());
    connect(builder.start());
    // the users over SOAP: a `gantry-server user add` JVM each took seconds
    for (String user : List.of("alice", "bob")) {
      admin.addUser(user, TestAccount.defaultPassword(user), "user", null);
    }
  }

  private static void connect(GantryTestServer started) {
    server = started;
    alice = client("alice");
    bob = client("bob");
    admin = JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
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

  private static JobDocument nightly(Map<String, String> values) {
    return JobTemplatesOverHttpTest.document(NIGHTLY, values);
  }

  private static ScheduleInfo add(
      JobManagement client, String name, String cron, String zone, MissedRunsName missed)
      throws InvalidJobFault {
    return client.addSchedule(
        name, cron, zone, missed, nightly(Map.of("business_date", "${schedule.date}")), null);
  }

  private static ScheduleInfo schedule(JobManagement client, String name) throws Exception {
    return client.listSchedules(false).stream()
        .filter(s -> s.name.equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static ScheduleInfo awaitSchedule(
      JobManagement client, String name, Predicate<ScheduleInfo> done, String what) {
    return Await.value(
        "schedule " + name + " " + what,
        FIRING,
        () -> schedule(client, name),
        done,
        s -> "last time " + s.lastTime + ", job " + s.lastJobId + ", note " + s.lastNote);
  }

  private static Predicate<ScheduleInfo> ranFor(String time) {
    Instant at = Instant.parse(time);
    return s -> at.equals(s.lastTime) && s.lastJobId != null;
  }

  @Test
  @Order(1)
  void aScheduleSubmitsItsJobAtEachTimeAsItsOwnerWithTheScheduledDate() throws Exception {
    ScheduleInfo added = add(alice, "nightly", "30 18 * * 1-5", "Europe/London", null);
    assertEquals(Instant.parse("2026-11-23T18:30:00Z"), added.nextTime);
    assertEquals(MissedRunsName.RUN_ONCE, added.missedRuns, "run-once unless told otherwise");
    assertEquals("alice", added.owner);

    clock.set(Instant.parse("2026-11-23T18:30:05Z"));
    ScheduleInfo fired = awaitSchedule(alice, "nightly", ranFor("2026-11-23T18:30:00Z"), "to run");
    JobStatusInfo job = alice.getJobStatus(fired.lastJobId);
    assertEquals("alice", job.owner);
    assertEquals("nightly", job.schedule);
    assertEquals(Instant.parse("2026-11-23T18:30:00Z"), job.scheduledFor);
    assertEquals("nightly-DESK-1-2026-11-23", job.name);
    assertEquals(
        Map.of("business_date", "2026-11-23", "portfolio", "DESK-1"),
        JobTemplatesOverHttpTest.map(job.parameters));
    assertEquals(Instant.parse("2026-11-24T18:30:00Z"), fired.nextTime);

    // Tuesday to Friday pass at once (a suspended machine): one job, for the latest time
    clock.set(Instant.parse("2026-11-28T09:00:00Z"));
    ScheduleInfo caughtUp =
        awaitSchedule(alice, "nightly", ranFor("2026-11-27T18:30:00Z"), "to run for Friday");
    assertTrue(caughtUp.lastNote.contains("ran once for 4 times"), caughtUp.lastNote);
    assertEquals(
        "2026-11-27",
        JobTemplatesOverHttpTest.map(alice.getJobStatus(caughtUp.lastJobId).parameters)
            .get("business_date"));
    assertEquals(Instant.parse("2026-11-30T18:30:00Z"), caughtUp.nextTime, "the weekend is free");
  }

  @Test
  @Order(2)
  void aUsersSchedulesAreTheirsOnlyAndAPausedOneSubmitsNothing() throws Exception {
    clock.set(Instant.parse("2026-11-29T12:00:00Z"));
    add(bob, "bobs", "0 7 * * *", "UTC", MissedRunsName.SKIP);
    add(alice, "morning", "0 7 * * *", "UTC", MissedRunsName.RUN_ONCE);
    assertEquals(List.of("bobs"), bob.listSchedules(false).stream().map(s -> s.name).toList());
    assertFalse(alice.listSchedules(false).stream().anyMatch(s -> s.name.equals("bobs")));
    assertThrows(AccessDeniedFault.class, () -> bob.listSchedules(true));
    assertTrue(
        admin.listSchedules(true).stream()
            .map(s -> s.owner + "/" + s.name)
            .toList()
            .containsAll(List.of("alice/nightly", "alice/morning", "bob/bobs")));
    SOAPFaultException notYours =
        assertThrows(SOAPFaultException.class, () -> bob.pauseSchedule("morning"));
    assertTrue(
        notYours.getMessage().contains("no schedule morning for user bob"), notYours.getMessage());
    String aliceMorning = schedule(alice, "morning").scheduleId;
    assertThrows(SOAPFaultException.class, () -> bob.removeSchedule(aliceMorning));

    ScheduleInfo paused = alice.pauseSchedule("morning");
    assertTrue(paused.paused);
    assertNull(paused.nextTime);
    clock.set(Instant.parse("2026-11-30T07:00:30Z"));
    // bob's schedule of the same time has run: the check that would have run alice's is done
    awaitSchedule(bob, "bobs", ranFor("2026-11-30T07:00:00Z"), "to run");
    ScheduleInfo stillPaused = schedule(alice, "morning");
    assertNull(stillPaused.lastJobId);
    assertNull(stillPaused.lastTime);

    // run now, paused or not: a job as at a time that came now; the schedule's times untouched
    String now = alice.runSchedule("morning");
    JobStatusInfo ranNow = alice.getJobStatus(now);
    assertEquals("alice", ranNow.owner);
    assertEquals("morning", ranNow.schedule);
    assertEquals(Instant.parse("2026-11-30T07:00:30Z"), ranNow.scheduledFor);
    assertEquals(
        "2026-11-30", JobTemplatesOverHttpTest.map(ranNow.parameters).get("business_date"));
    assertNull(schedule(alice, "morning").lastJobId, "not one of the schedule's own runs");
    SOAPFaultException notYoursToRun =
        assertThrows(SOAPFaultException.class, () -> bob.runSchedule("morning"));
    assertTrue(
        notYoursToRun.getMessage().contains("no schedule morning for user bob"),
        notYoursToRun.getMessage());

    // resumed from now: the 07:00 that passed while paused does not run
    ScheduleInfo resumed = alice.resumeSchedule(aliceMorning);
    assertFalse(resumed.paused);
    assertEquals(Instant.parse("2026-12-01T07:00:00Z"), resumed.nextTime);
    clock.set(Instant.parse("2026-12-01T07:00:10Z"));
    awaitSchedule(alice, "morning", ranFor("2026-12-01T07:00:00Z"), "to run after resuming");
    ScheduleInfo removed = admin.removeSchedule(aliceMorning);
    assertEquals("morning", removed.name);
    assertFalse(alice.listSchedules(false).stream().anyMatch(s -> s.name.equals("morning")));
  }

  @Test
  @Order(3)
  void aScheduleIsCheckedWhenItIsAdded() {
    SOAPFaultException cron =
        assertThrows(
            SOAPFaultException.class, () -> add(alice, "bad-cron", "61 18 * * *", "UTC", null));
    assertTrue(cron.getMessage().contains("argument cron"), cron.getMessage());
    SOAPFaultException zone =
        assertThrows(
            SOAPFaultException.class,
            () -> add(alice, "bad-zone", "0 18 * * *", "Mars/Olympus", null));
    assertTrue(zone.getMessage().contains("argument timeZone"), zone.getMessage());
    InvalidJobFault missing =
        assertThrows(
            InvalidJobFault.class,
            () -> alice.addSchedule("no-date", "0 18 * * *", "UTC", null, nightly(Map.of()), null));
    assertTrue(
        missing.getFaultInfo().problems.stream()
            .anyMatch(p -> p.message.contains("parameter business_date has no value")));
    SOAPFaultException variable =
        assertThrows(
            SOAPFaultException.class,
            () ->
                alice.addSchedule(
                    "bad-variable",
                    "0 18 * * *",
                    "UTC",
                    null,
                    nightly(Map.of("business_date", "${schedule.tomorrow}")),
                    null));
    assertTrue(variable.getMessage().contains("${schedule.date}"), variable.getMessage());
    SOAPFaultException twice =
        assertThrows(
            SOAPFaultException.class, () -> add(alice, "nightly", "0 18 * * *", "UTC", null));
    assertTrue(twice.getMessage().contains("already have a schedule named nightly"));
  }

  @Test
  @Order(4)
  void timesMissedWhileTheServerWasDownRunOnceOrAreSkippedAsEachScheduleSays() throws Exception {
    clock.set(Instant.parse("2026-12-02T12:00:00Z"));
    add(alice, "catch-up", "0 6 * * *", "UTC", MissedRunsName.RUN_ONCE);
    add(alice, "no-catch-up", "0 6 * * *", "UTC", MissedRunsName.SKIP);
    server.close();
    clock.set(Instant.parse("2026-12-05T12:00:00Z")); // 06:00 on the 3rd, 4th and 5th missed
    connect(builder.start());

    ScheduleInfo caughtUp =
        awaitSchedule(alice, "catch-up", ranFor("2026-12-05T06:00:00Z"), "to run once");
    assertEquals(
        "2026-12-05",
        JobTemplatesOverHttpTest.map(alice.getJobStatus(caughtUp.lastJobId).parameters)
            .get("business_date"));
    ScheduleInfo skipped =
        awaitSchedule(
            alice,
            "no-catch-up",
            s -> Instant.parse("2026-12-05T06:00:00Z").equals(s.lastTime),
            "to skip");
    assertNull(skipped.lastJobId);
    assertTrue(skipped.lastNote.contains("skipped 3 time(s)"), skipped.lastNote);
    assertEquals(1, jobsOf("catch-up"), "one job for the three missed times");

    clock.set(Instant.parse("2026-12-06T06:00:01Z"));
    awaitSchedule(alice, "no-catch-up", ranFor("2026-12-06T06:00:00Z"), "to run on time");
  }

  @Test
  @Order(5)
  void aScheduleWithAHolidayCalendarSkipsItsDatesAndSaysSo() throws Exception {
    clock.set(Instant.parse("2026-12-07T12:00:00Z"));
    SOAPFaultException unknown =
        assertThrows(
            SOAPFaultException.class,
            () ->
                alice.addSchedule(
                    "no-such-calendar",
                    "0 6 * * *",
                    "UTC",
                    null,
                    nightly(Map.of("business_date", "${schedule.date}")),
                    "nope"));
    assertTrue(
        unknown.getMessage().contains("no holiday calendar nope on this server; it has bank"),
        unknown.getMessage());
    ScheduleInfo added =
        alice.addSchedule(
            "working-days",
            "0 6 * * *",
            "UTC",
            null,
            nightly(Map.of("business_date", "${schedule.date}")),
            "bank");
    assertEquals("bank", added.calendar);
    assertEquals(Instant.parse("2026-12-09T06:00:00Z"), added.nextTime, "the 8th is a holiday");

    clock.set(Instant.parse("2026-12-08T06:00:30Z"));
    ScheduleInfo skipped =
        awaitSchedule(
            alice,
            "working-days",
            s -> Instant.parse("2026-12-08T06:00:00Z").equals(s.lastTime),
            "to skip the holiday");
    assertNull(skipped.lastJobId);
    assertTrue(
        skipped.lastNote.contains("2026-12-08 is a holiday in calendar bank"), skipped.lastNote);
    assertEquals(Instant.parse("2026-12-09T06:00:00Z"), skipped.nextTime);
    assertEquals(0, jobsOf("working-days"));
  }

  private static long jobsOf(String schedule) throws Exception {
    return alice.listJobs(List.of(), 0, 100, false).jobs.stream()
        .filter(j -> schedule.equals(statusOf(j.jobId).schedule))
        .count();
  }

  private static JobStatusInfo statusOf(String jobId) {
    try {
      return alice.getJobStatus(jobId);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
