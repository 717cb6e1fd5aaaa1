package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every path of the job lifecycle (design: "Job lifecycle"), driven by a CXF client over HTTP
 * against a real server: real staging against an H2 database, real processes, real mpirun.
 */
class JobLifecycleOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("slots.total", "2");
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aJobStagesInRunsAndStagesOutToSucceeded() throws Exception {
    String id = client.submitJob(RiskDatabase.valuationJob("valuation").document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    assertEquals(0, status.exitCode);
    assertNotNull(status.started);
    assertNotNull(status.finished);
    assertEquals(
        1,
        risk.count(
            "SELECT COUNT(*) FROM job_result WHERE job_id = '"
                + id
                + "' AND value_at_risk = "
                + RiskDatabase.POSITIONS));

    JobResults results = client.getJobResults(id);
    assertEquals(1, results.stagedIn.size());
    StagedFileInfo in = results.stagedIn.get(0);
    assertEquals(RiskDatabase.POSITIONS, in.rows);
    assertTrue(in.target.endsWith("positions.csv"), in.target);
    Path staged = server.dataDir().resolve("jobs").resolve(id).resolve("positions.csv");
    assertEquals(Files.size(staged), in.bytes);
    assertEquals("sha256:" + Sha256.of(staged), in.checksum);
    assertEquals(1, results.stagedOut.size());
    assertEquals(1L, results.stagedOut.get(0).rows);

    JobAudit audit = client.getJobAudit(id);
    assertEquals("local", audit.owner);
    List<String> trail =
        audit.entries.stream()
            .map(
                e ->
                    e.kind.equals("DATA_MOVEMENT")
                        ? "data " + e.movement.target
                        : e.fromState + "->" + e.toState)
            .toList();
    assertEquals(
        List.of(
            "null->QUEUED",
            "QUEUED->STAGING_IN",
            "STAGING_IN->STAGED",
            "data " + in.target,
            "STAGED->RUNNING",
            "RUNNING->STAGING_OUT",
            "STAGING_OUT->SUCCEEDED",
            "data " + results.stagedOut.get(0).target),
        trail);
    assertEquals("submitted by local", audit.entries.get(0).text);
    assertEquals(in.checksum, audit.entries.get(3).movement.checksum);
    for (int i = 1; i < audit.entries.size(); i++) {
      assertFalse(audit.entries.get(i).at.isBefore(audit.entries.get(i - 1).at), "oldest first");
    }
  }

  @Test
  void aStageInFromAMissingTableFailsTheJobBeforeItsProgramRuns() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("no-table")
                .sqlStageIn(RiskDatabase.NAME, 1, "SELECT * FROM no_such_table", "positions.csv")
                .shell("touch ran", 60)
                .document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertTrue(status.failureReason.startsWith("stage-in failed"), status.failureReason);
    assertTrue(
        status.failureReason.toUpperCase(java.util.Locale.ROOT).contains("NO_SUCH_TABLE"),
        status.failureReason);
    assertNull(status.started);
    assertNull(status.exitCode);
    assertTrue(Files.notExists(server.dataDir().resolve("jobs").resolve(id).resolve("ran")));
  }

  @Test
  void aProgramThatExitsNonZeroFailsTheJobWithItsExitCode() throws Exception {
    String id = client.submitJob(TestJobs.job("false").posix(60, "/bin/false").document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertEquals(1, status.exitCode);
    assertTrue(status.failureReason.contains("standard error"), status.failureReason);
  }

  @Test
  void aJobWaitingForSlotsIsCancelledAndARunningJobIsKilled() throws Exception {
    Path release = dir.resolve("release-cancel");
    String blocker =
        client.submitJob(
            TestJobs.job("blocker")
                .mpirun(
                    2, 60, "/bin/sh", "-c", "while [ ! -e '" + release + "' ]; do sleep 0.1; done")
                .document());
    await(client, blocker, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    String waiting = client.submitJob(RiskDatabase.valuationJob("waiting").document());
    await(client, waiting, LIMIT, s -> s.state == JobStateName.STAGED, "STAGED");

    JobStatusInfo cancelled = client.cancelJob(waiting);
    assertEquals(JobStateName.CANCELLED, cancelled.state);
    assertTrue(cancelled.failureReason.contains("cancelled"), cancelled.failureReason);

    assertTrue(processesMentioning(release.toString()) > 0, "the blocker's ranks run");
    JobStatusInfo killed = client.killJob(blocker);
    assertEquals(JobStateName.KILLED, killed.state, killed.failureReason);
    // mpirun exits 1 after it forwarded SIGTERM: what is reported is the signal, once
    // SIGTERM normally ends mpirun and its ranks; on a loaded machine mpirun may outlast the 2 s
    // grace and be ended by SIGKILL. Either way: one reason naming the signal, and 128 + it.
    java.util.regex.Matcher reason =
        java.util.regex.Pattern.compile("killed by local with SIG(TERM|KILL) \\(signal (15|9)\\)")
            .matcher(killed.failureReason);
    assertTrue(reason.matches(), killed.failureReason);
    assertEquals(
        128 + Integer.parseInt(reason.group(2)),
        killed.exitCode,
        "128 + the signal that stopped it");
    assertEquals(0, processesMentioning(release.toString()), "no rank outlives its killed job");
    assertEquals(JobStateName.CANCELLED, client.getJobStatus(waiting).state, "stays cancelled");
    assertNull(client.getJobStatus(waiting).started, "a cancelled job never ran");
    assertEquals(0, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + waiting + "'"));
  }

  @Test
  void jobsWaitingToStageInAndStagingInAreCancelledAndNeverRun() throws Exception {
    Path release = dir.resolve("release-staging");
    String query = RiskDatabase.positionsQueryHeldUntil(release);
    // two held stage-ins occupy both staging threads (staging.parallelism 2)
    String stagingIn = client.submitJob(RiskDatabase.valuationJob("held-1", query).document());
    String other = client.submitJob(RiskDatabase.valuationJob("held-2", query).document());
    await(client, stagingIn, LIMIT, s -> s.state == JobStateName.STAGING_IN, "STAGING_IN");
    await(client, other, LIMIT, s -> s.state == JobStateName.STAGING_IN, "STAGING_IN");
    String queued = client.submitJob(RiskDatabase.valuationJob("queued").document());
    assertEquals(JobStateName.QUEUED, client.getJobStatus(queued).state);

    assertEquals(JobStateName.CANCELLED, client.cancelJob(queued).state);
    assertEquals(JobStateName.CANCELLED, client.cancelJob(stagingIn).state);
    Files.createFile(release);
    assertEquals(
        JobStateName.SUCCEEDED,
        awaitFinal(client, other, LIMIT).state,
        "the server and its data source still work after an interrupted stage-in");
    for (String id : List.of(queued, stagingIn)) {
      JobStatusInfo status = client.getJobStatus(id);
      assertEquals(JobStateName.CANCELLED, status.state);
      assertNull(status.started, "a cancelled job never ran");
      assertEquals(0, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"));
    }
  }

  /** Processes whose command line contains {@code text}: a job's ranks, found by their script. */
  private static long processesMentioning(String text) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().commandLine().map(c -> c.contains(text)).orElse(false))
        .count();
  }

  @Test
  void aJobOverItsWallTimeIsStoppedAndFailed() throws Exception {
    String id = client.submitJob(TestJobs.job("slow").posix(1, "/bin/sleep", "30").document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertTrue(status.failureReason.contains("wall-time limit exceeded"), status.failureReason);
    assertTrue(
        Duration.between(status.started, status.finished).toSeconds() < 25,
        "stopped long before sleep would have ended");
  }

  @Test
  void aStageOutIntoAMissingTableFailsTheJobAfterItsProgramSucceeded() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("no-target")
                .shell("printf 'job_id,value\\n%s,1\\n' \"$GANTRY_JOB_ID\" > result.csv", 60)
                .sqlStageOut(
                    RiskDatabase.NAME,
                    "INSERT INTO no_such_result (job_id, v) VALUES (?, ?)",
                    "result.csv")
                .document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertEquals(0, status.exitCode, "the program itself succeeded");
    assertTrue(status.failureReason.startsWith("stage-out failed"), status.failureReason);
  }

  @Test
  void aStageOutFailingInItsSecondGroupShowsAndNamesTheStepThatCommittedInTheFirst()
      throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("half-out")
                .shell(
                    "printf 'job_id,value_at_risk\\n%s,7\\n' \"$GANTRY_JOB_ID\" > result.csv; cp result.csv second.csv",
                    60)
                .sqlStageOut(
                    RiskDatabase.NAME,
                    1,
                    "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
                    "result.csv")
                .sqlStageOut(
                    RiskDatabase.NAME,
                    2,
                    "INSERT INTO no_such_result (job_id, v) VALUES (?, ?)",
                    "second.csv")
                .document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"),
        "group 1 committed");
    assertTrue(
        status.failureReason.contains("NO_SUCH_RESULT"),
        "the failed step: " + status.failureReason);
    assertTrue(
        status.failureReason.contains(
            "1 stage-out step(s) had committed before the failure and stay committed:"
                + " sql-load result.csv to 'risk'"),
        status.failureReason);

    JobResults results = client.getJobResults(id);
    assertEquals(1, results.stagedOut.size(), "the committed step");
    assertEquals(1L, results.stagedOut.get(0).rows);
    assertTrue(
        results.stagedOut.get(0).source.endsWith("result.csv"), results.stagedOut.get(0).source);

    List<String> trail =
        client.getJobAudit(id).entries.stream()
            .map(
                e ->
                    e.kind.equals("DATA_MOVEMENT")
                        ? "data " + e.text
                        : e.fromState + "->" + e.toState)
            .toList();
    assertEquals(
        "data stage-out: sql-load, 1 rows, " + results.stagedOut.get(0).bytes + " bytes",
        trail.get(trail.size() - 1),
        trail.toString());
    assertEquals("STAGING_OUT->FAILED", trail.get(trail.size() - 2), trail.toString());
  }
}
