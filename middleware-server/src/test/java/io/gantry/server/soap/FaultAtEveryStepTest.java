package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.MissedRunsName;
import io.gantry.server.api.ScheduleInfo;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.ScheduleClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault at every step of a job's life: the server halts as in a {@code kill -9} ({@link
 * FaultPoint}) at each named point in turn and is started again on the same data directory, until
 * the jobs are final. Job "chain" meets every point from its storing to its final state, one crash
 * per server (each restart arms the next point, which the recovered job passes on its way); two
 * more jobs meet the two points around a program's start: halted before it, the program's fate is
 * unknowable (it never ran); halted after it but before its reference was stored, the next server
 * finds the job by its supervisor's start record and follows it. Then: each job reached exactly one
 * final state, its program ran at most once (it counts its runs in a file outside its job
 * directory), every stage-out step committed exactly once (its rows and its ledger row), and the
 * audit trail says how each job ended and which steps a restart found committed.
 */
class FaultAtEveryStepTest {
  static final Path STEPD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-stepd");
  static final Duration LIMIT = Duration.ofSeconds(90);

  /** gantry-stepd with its fault points compiled in: a test build (node-programs/tests). */
  static final Path STEPD_FAULTS = STEPD.resolveSibling("tests/gantry-stepd-faults");

  /** gantry-stepd's own fault points, in the order of its life (node-programs/stepd). */
  static final List<String> STEPD_POINTS =
      List.of(
          "stepd.recorded", "stepd.program-started", "stepd.program-ended", "stepd.status-written");

  /**
   * Whether the schedule runner's claim is crashed too (servers halted at {@code schedule.claimed}
   * and {@code schedule.submitted}). Off unless {@code -Dgantry.test.schedule-claim-crashes=true}:
   * on fresh clones under the full suite it failed twice in three runs (once the restarted server
   * listed neither schedule, once the time claimed at seven was recorded with no note, as by a
   * normal firing). Both were acknowledged writes of the H2 store lost at the halt (the halted
   * server's log names the job the next server no longer had). H2's background writer was one
   * cause, now off (Transactor); with it off, a write was still lost once at load ~45 (this test's
   * STAGED and RUNNING of job "launch"): the second cause, H2's file header naming a chunk before
   * the newest, is now written right before each sync (H2FileHeader, TransactorCrashTest). The part
   * stays off until it has passed three times under load with both fixed (docs/reliability.md).
   */
  static final boolean SCHEDULE_CLAIM_CRASHES =
      Boolean.getBoolean("gantry.test.schedule-claim-crashes");

  /** The schedules' clock at the first server: nothing is due until 06:00. */
  static final Instant SCHEDULES_START = Instant.parse("2026-11-23T05:00:00Z");

  /** Each point the chained job meets, in the order of its life. */
  static final List<FaultPoint> CHAIN =
      List.of(
          FaultPoint.JOB_STORED,
          FaultPoint.STAGE_IN_GROUP_STARTED,
          FaultPoint.STAGE_IN_STEP_FINISHED,
          FaultPoint.STAGE_IN_RECORDED,
          FaultPoint.PROGRAM_RUNNING,
          FaultPoint.PROGRAM_EXITED,
          FaultPoint.STAGE_OUT_GROUP_STARTED,
          FaultPoint.STAGE_OUT_STEP_COMMITTING, // group 1's step
          FaultPoint.STAGE_OUT_STEP_COMMITTED, // group 1's step
          FaultPoint.STAGE_OUT_STEP_COMMITTING, // group 2's: group 1's is skipped by the ledger
          FaultPoint.STAGE_OUT_STEP_COMMITTED, // group 2's
          FaultPoint.STAGE_OUT_RECORDED,
          FaultPoint.JOB_FINAL);

  @TempDir Path dir;

  @Test
  void aJobWhoseServerHaltsAtEachStepEndsOnceRunsAtMostOnceAndCommitsEachStepOnce()
      throws Exception {
    assertTrue(Files.isExecutable(STEPD), "build the node programs first: " + STEPD);
    RiskDatabase risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    Path runs = Files.createDirectories(dir.resolve("runs"));
    Files.setPosixFilePermissions(
        runs, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("jobs.supervisor", STEPD.toString());
    settings.put("filesystem.RUNS.path", runs.toString()); // the sandbox shows it at /fs/RUNS
    ScheduleClock clock = ScheduleClock.at(dir, SCHEDULES_START);
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir)
            .dataDir(dir.resolve("server"))
            .settings(settings)
            .scheduleClock(clock);

    // RUNNING is stored, the program not started: nothing ran, the job fails as of unknown fate
    haltAt(builder, FaultPoint.LAUNCH_REQUESTED, client -> submit(client, job("launch")));
    String launch = onlyJobNamed("launch");
    // the supervisor runs the program, its reference is not stored: the next server finds the
    // supervisor by its start record and follows the job, which ends while no server runs
    haltAt(builder, FaultPoint.PROGRAM_STARTED, client -> submit(client, job("started")));
    String started = onlyJobNamed("started");
    // started is final before chain is submitted: it meets none of the points armed for chain
    haltAt(
        builder,
        FaultPoint.JOB_STORED,
        client -> {
          JobStatusInfo end = awaitFinal(client, started, LIMIT);
          assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
          submit(client, job("chain"));
        });
    String chain = onlyJobNamed("chain");
    for (FaultPoint point : CHAIN.subList(1, CHAIN.size())) {
      haltAt(builder, point, null);
    }
    if (SCHEDULE_CLAIM_CRASHES) {
      // no job is live now: the schedule runner's claim, halted after it and after the submission
      haltAt(
          builder,
          FaultPoint.SCHEDULE_CLAIMED,
          client -> {
            addSchedule(client, "at-six", "0 6 * * *");
            addSchedule(client, "at-seven", "0 7 * * *");
            clock.set(SCHEDULES_START.plusSeconds(3601)); // 06:00:01
          });
      haltAt(
          builder,
          FaultPoint.SCHEDULE_SUBMITTED,
          client -> {
            // the claimed time is settled at start: no job, not retried, the note says why
            ScheduleInfo six =
                awaitSchedule(client, "at-six", s -> !"submitting".equals(s.lastNote));
            assertEquals(SCHEDULES_START.plusSeconds(3600), six.lastTime);
            assertNull(six.lastJobId, six.lastNote);
            assertTrue(
                six.lastNote.startsWith("not submitted: the server stopped while submitting it"),
                six.lastNote);
            clock.set(SCHEDULES_START.plusSeconds(7201)); // 07:00:01
          });
    }
    String scheduled = null;
    Map<String, String> stepdJobs = new HashMap<>(); // stepd's point -> the job halted there
    // the last server's supervisor is the test build of gantry-stepd, which halts where a job's
    // environment says (it behaves as gantry-stepd otherwise): the server follows it as it dies
    builder.setting("jobs.supervisor", STEPD_FAULTS.toString());
    try (GantryTestServer last = builder.name("fault-last").start()) {
      JobManagement client = JobManagementClients.of(last);
      assertTrue(
          Files.isExecutable(STEPD_FAULTS), "build the node programs first: " + STEPD_FAULTS);
      for (String point : STEPD_POINTS) {
        stepdJobs.put(point, client.submitJob(TestJobs.documentOf(stepdJob(point))));
      }
      JobStatusInfo end = awaitFinal(client, chain, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
      if (SCHEDULE_CLAIM_CRASHES) {
        // the job submitted as the server halted is found by its origin and named by the schedule
        ScheduleInfo seven = awaitSchedule(client, "at-seven", s -> s.lastJobId != null);
        assertEquals(SCHEDULES_START.plusSeconds(7200), seven.lastTime);
        assertTrue(seven.lastNote.contains("found it at restart"), seven.lastNote);
        scheduled = seven.lastJobId;
        JobStatusInfo scheduledEnd = awaitFinal(client, scheduled, LIMIT);
        assertEquals(JobStateName.SUCCEEDED, scheduledEnd.state, scheduledEnd.failureReason);
        assertEquals(
            SCHEDULES_START.plusSeconds(3600),
            schedule(client, "at-six").lastTime,
            "the halted claim was not tried again");
      }
      for (String point : STEPD_POINTS) {
        String id = stepdJobs.get(point);
        JobStatusInfo stepdEnd = awaitFinal(client, id, LIMIT);
        List<AuditEntry> trail = client.getJobAudit(id).entries;
        List<AuditEntry> ends =
            trail.stream().filter(e -> e.toState != null && TestJobs.isFinal(e.toState)).toList();
        assertEquals(1, ends.size(), point + ": one end in the audit trail");
        if (point.equals("stepd.status-written")) {
          // its end was recorded before it died: the job ends as its program did
          assertEquals(
              JobStateName.SUCCEEDED, stepdEnd.state, point + ": " + stepdEnd.failureReason);
        } else {
          assertEquals(JobStateName.FAILED, stepdEnd.state, point);
          assertTrue(
              stepdEnd.failureReason.contains("ended without recording the job's end"),
              point + ": " + stepdEnd.failureReason);
          assertTrue(
              ends.get(0).text.contains("ended without recording"),
              point + ": the audit trail says why: " + ends.get(0).text);
        }
      }
      JobStatusInfo failed = awaitFinal(client, launch, LIMIT);
      assertEquals(JobStateName.FAILED, failed.state, launch);
      assertTrue(
          failed.failureReason.startsWith("server restarted while running"), failed.failureReason);
      JobStatusInfo followed = awaitFinal(client, started, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, followed.state, followed.failureReason);
      assertEquals(0, followed.exitCode);
      List<AuditEntry> audit = client.getJobAudit(chain).entries;
      assertEquals(
          1,
          audit.stream().filter(e -> e.toState == JobStateName.SUCCEEDED).count(),
          "one end in the audit trail");
      List<String> stageOut = new ArrayList<>();
      audit.stream()
          .filter(e -> e.movement != null && e.text.startsWith("stage-out"))
          .forEach(e -> stageOut.add(e.text));
      assertEquals(2, stageOut.size(), "both stage-out steps in the audit trail: " + stageOut);
      assertTrue(
          stageOut.stream().allMatch(t -> t.contains("already done by an earlier attempt")),
          "the last stage-out found both steps committed before, and says so: " + stageOut);
    }

    assertEquals(1, runsOf(runs, chain), "the chained job's program ran once");
    assertEquals(0, runsOf(runs, launch), "the program halted before its start never ran");
    assertEquals(1, runsOf(runs, started), "the program started as the server halted ran once");
    if (SCHEDULE_CLAIM_CRASHES) {
      assertEquals(1, runsOf(runs, scheduled), "the job scheduled as the server halted ran once");
      assertEquals(1, jobsOfSchedule("at-seven"), "one job for the time claimed at seven");
      assertEquals(0, jobsOfSchedule("at-six"), "no job for the time claimed at six");
      assertEquals(2, risk.count(rows(scheduled, "job_result")), "the scheduled job's results");
    }
    // gantry-stepd killed: before the program (it never ran), as it started it (at most once:
    // the program gets SIGTERM when its supervisor dies), after its end and after the status
    assertEquals(0, runsOf(runs, stepdJobs.get("stepd.recorded")), "stepd.recorded");
    assertTrue(runsOf(runs, stepdJobs.get("stepd.program-started")) <= 1, "at most once");
    assertEquals(1, runsOf(runs, stepdJobs.get("stepd.program-ended")), "stepd.program-ended");
    assertEquals(1, runsOf(runs, stepdJobs.get("stepd.status-written")), "stepd.status-written");
    for (String point : STEPD_POINTS) {
      String id = stepdJobs.get(point);
      assertEquals(1, ServerKilledMidJob.finalTransitions(dir.resolve("server"), id), point);
      assertEquals(
          point.equals("stepd.status-written") ? 2 : 0,
          risk.count(rows(id, "job_result")),
          point + ": staged out only after a recorded end, and once");
    }
    for (String id : List.of(chain, launch, started)) {
      assertEquals(1, ServerKilledMidJob.finalTransitions(dir.resolve("server"), id), id);
    }
    assertEquals(2, risk.count(rows(chain, "job_result")), "one row from each stage-out step");
    assertEquals(
        1, risk.count(rows(chain, "job_result") + " AND value_at_risk = -1"), "group 2's row once");
    assertEquals(2, risk.count(rows(chain, "gantry_stage_out_ledger")), "each step's ledger row");
    assertEquals(0, risk.count(rows(launch, "job_result")));
    assertEquals(
        2, risk.count(rows(started, "job_result")), "the followed job's results staged out once");
  }

  @Test
  void aMisspeltFaultPointRefusesTheStartNamingTheKnownOnes() {
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir)
            .name("fault-misspelt")
            .jvmOptions(List.of("-Xmx256m", "-D" + FaultPoint.PROPERTY + "=stage-in.started"));
    IllegalStateException refused = assertThrows(IllegalStateException.class, builder::start);
    assertTrue(
        refused.getMessage().contains("unknown fault point 'stage-in.started'; known: [job.stored"),
        refused.getMessage());
  }

  /**
   * Starts a server armed at {@code point}, does {@code action} (when not null) and waits for the
   * server to halt there, which it may do while starting (recovering a job).
   */
  private void haltAt(
      GantryTestServerBuilder builder,
      FaultPoint point,
      java.util.function.Consumer<JobManagement> action)
      throws Exception {
    builder
        .name("fault-" + point.pointName())
        .jvmOptions(
            List.of(
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-D" + FaultPoint.PROPERTY + "=" + point.pointName()));
    String halted = "halting at fault point " + point.pointName();
    String log;
    try (GantryTestServer server = builder.start()) {
      if (action != null) {
        action.accept(JobManagementClients.of(server));
      }
      Await.until("the server to halt at " + point.pointName(), LIMIT, () -> !server.isAlive());
      log = server.log();
    } catch (IllegalStateException e) {
      if (e.getMessage() == null || !e.getMessage().contains(halted)) {
        throw e;
      }
      log = e.getMessage(); // halted while recovering, before it listened
    }
    assertTrue(log.contains(halted), log);
    builder.jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
  }

  /** Submits, expecting no answer: the server halts before it answers, or just after. */
  private static void submit(JobManagement client, String job) {
    try {
      client.submitJob(TestJobs.documentOf(job));
    } catch (RuntimeException e) {
      // the connection closed by the halt
    } catch (Exception e) { // a SOAP fault: the server refused the job
      throw new AssertionError("the job was refused", e);
    }
  }

  /**
   * Counts its run in the file system RUNS (outside its job directory, which a new stage-in would
   * empty), writes one result row per stage-out group (group 2's is -1), from positions staged in.
   */
  static String job(String name) {
    return RiskDatabase.valuationJob(name)
        .shell(
            "echo run >> /fs/RUNS/$GANTRY_JOB_ID; "
                + RiskDatabase.RESULT_SCRIPT
                + "; printf 'job_id,value_at_risk\\n%s,-1\\n' \"$GANTRY_JOB_ID\" > result2.csv",
            60)
        .sqlStageOut(
            RiskDatabase.NAME,
            2,
            "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
            "result2.csv")
        .xml()
        .replace(
            "</jsdl:Application>",
            "</jsdl:Application><jsdl:Resources><jsdl:FileSystem name=\"RUNS\">"
                + "<jsdl:FileSystemType>normal</jsdl:FileSystemType></jsdl:FileSystem>"
                + "</jsdl:Resources>");
  }

  /** As {@link #job}, its supervisor (the test build) killing itself at {@code point}. */
  private static String stepdJob(String point) {
    return job(point.replace('.', '-'))
        .replace(
            "<posix:WallTimeLimit>",
            "<posix:Environment name=\"STEPD_FAULT_HALT_AT\">"
                + point
                + "</posix:Environment><posix:WallTimeLimit>");
  }

  private static String rows(String id, String table) {
    return "SELECT COUNT(*) FROM " + table + " WHERE job_id = '" + id + "'";
  }

  private static long runsOf(Path runs, String id) throws Exception {
    Path file = runs.resolve(id);
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }

  private static void addSchedule(JobManagement client, String name, String cron) {
    try {
      client.addSchedule(
          name, cron, "UTC", MissedRunsName.RUN_ONCE, TestJobs.documentOf(job(name)), null);
    } catch (Exception e) {
      throw new AssertionError("schedule " + name + " refused", e);
    }
  }

  private static ScheduleInfo schedule(JobManagement client, String name) throws Exception {
    return scheduleIfListed(client, name).orElseThrow();
  }

  /** The schedule as listed to the caller; empty while it is not (SOAP gives no list as null). */
  private static java.util.Optional<ScheduleInfo> scheduleIfListed(
      JobManagement client, String name) throws Exception {
    List<ScheduleInfo> listed = client.listSchedules(false);
    return listed == null
        ? java.util.Optional.empty()
        : listed.stream().filter(s -> s.name.equals(name)).findFirst();
  }

  private static ScheduleInfo awaitSchedule(
      JobManagement client, String name, Predicate<ScheduleInfo> done) {
    return Await.value(
            "schedule " + name,
            LIMIT,
            () -> scheduleIfListed(client, name),
            s -> s.isPresent() && done.test(s.get()),
            s ->
                s.map(
                        i ->
                            "last time "
                                + i.lastTime
                                + ", job "
                                + i.lastJobId
                                + ", note "
                                + i.lastNote)
                    .orElse("not listed to the caller"))
        .orElseThrow();
  }

  /** How many jobs the job store holds from the schedule of that name (by their origin). */
  private long jobsOfSchedule(String name) throws Exception {
    try (Connection c = jobStore();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM gantry_job_origin o JOIN gantry_schedule s"
                    + " ON s.id = o.schedule_id WHERE s.name = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        return rs.getLong(1);
      }
    }
  }

  /** The job store of the servers, while none runs. */
  private Connection jobStore() throws Exception {
    return DriverManager.getConnection(
        "jdbc:h2:file:" + dir.resolve("server/jobstore/gantry").toAbsolutePath(), "gantry", "");
  }

  /** The id of the one job of that name, from the store of the halted server. */
  private String onlyJobNamed(String name) throws Exception {
    try (Connection c = jobStore();
        PreparedStatement ps = c.prepareStatement("SELECT id FROM gantry_job WHERE name = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), "job " + name + " was stored");
        String id = rs.getString(1);
        assertFalse(rs.next(), "one job named " + name);
        return id;
      }
    }
  }
}
