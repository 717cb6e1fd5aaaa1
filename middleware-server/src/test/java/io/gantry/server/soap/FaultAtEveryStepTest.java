package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir).dataDir(dir.resolve("server")).settings(settings);

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

    try (GantryTestServer last = builder.name("fault-last").start()) {
      JobManagement client = JobManagementClients.of(last);
      JobStatusInfo end = awaitFinal(client, chain, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
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
  private static String job(String name) {
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

  private static String rows(String id, String table) {
    return "SELECT COUNT(*) FROM " + table + " WHERE job_id = '" + id + "'";
  }

  private static long runsOf(Path runs, String id) throws Exception {
    Path file = runs.resolve(id);
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }

  /** The id of the one job of that name, from the store of the halted server. */
  private String onlyJobNamed(String name) throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:h2:file:" + dir.resolve("server/jobstore/gantry").toAbsolutePath(),
                "gantry",
                "");
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
