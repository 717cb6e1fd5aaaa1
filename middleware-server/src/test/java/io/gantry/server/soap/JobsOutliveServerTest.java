package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local jobs under gantry-stepd (jobs.supervisor) outlive the server: a SIGKILL (crash) or SIGTERM
 * (clean stop) of the server leaves the job running, and the next server on the same data directory
 * follows it to its end, stages its results out once, and can still kill it. The supervisor alone
 * enforces the wall time while no server runs, and the job cannot forge its recorded end.
 */
class JobsOutliveServerTest {
  static final Path STEPD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-stepd");
  static final Duration LIMIT = Duration.ofSeconds(90);

  /** Writes its result, says it started, and waits for the test's release file. */
  static final String HELD_SCRIPT =
      RiskDatabase.RESULT_SCRIPT
          + "; echo started > started; while [ ! -e release ]; do sleep 0.1; done;"
          + " echo released";

  @TempDir Path dir;
  private RiskDatabase risk;
  private GantryTestServerBuilder builder;

  @BeforeEach
  void setUp() throws Exception {
    assertTrue(Files.isExecutable(STEPD), "build the node programs first: " + STEPD);
    risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("jobs.supervisor", STEPD.toString());
    // four jobs at once in the SIGKILL case
    builder =
        GantryTestServer.builder(dir).dataDir(dir.resolve("server")).settings(settings).slots(4);
  }

  /**
   * One SIGKILL of the server with four jobs, each meeting its own end through the next server: one
   * still running when it starts (followed, succeeds, staged out once), one that succeeded while no
   * server ran, one killed through the next server, and one whose wall time the supervisor alone
   * enforced while no server ran.
   */
  @Test
  void afterASigkillOfTheServerTheNextOneFollowsEachJobToItsOwnEnd() throws Exception {
    String survivor;
    String endsWhileDown;
    String killLater;
    String tooLong;
    try (GantryTestServer first = builder.name("first").start()) {
      JobManagement client = JobManagementClients.of(first);
      survivor =
          client.submitJob(
              RiskDatabase.valuationJob("outlives").shell(HELD_SCRIPT, 300).document());
      endsWhileDown =
          client.submitJob(
              RiskDatabase.valuationJob("ends-while-down").shell(HELD_SCRIPT, 300).document());
      killLater =
          client.submitJob(
              RiskDatabase.valuationJob("kill-later").shell(HELD_SCRIPT, 300).document());
      for (String id : List.of(survivor, endsWhileDown, killLater)) {
        awaitStarted(first, client, id);
      }
      // last, and killed right after its start: its 4 s run out while no server runs
      tooLong =
          client.submitJob(
              TestJobs.job("too-long").shell("echo started > started; sleep 600", 4).document());
      awaitStarted(first, client, tooLong);
      first.killHard();
    }
    Path jobs = dir.resolve("server").resolve("jobs");
    Path supervisor = dir.resolve("server").resolve("supervisor");
    assertFalse(
        Files.exists(jobs.resolve(survivor).resolve("stdout.txt"))
            && read(jobs.resolve(survivor), "stdout.txt").contains("released"));
    Files.writeString(jobs.resolve(endsWhileDown).resolve("release"), "go");
    Path endedStatus = supervisor.resolve(endsWhileDown + ".status");
    Await.until("the job to end with no server running", LIMIT, () -> Files.exists(endedStatus));
    Path tooLongStatus = supervisor.resolve(tooLong + ".status");
    Await.until(
        "the supervisor to record the job's end with no server running",
        LIMIT,
        () -> Files.exists(tooLongStatus));

    try (GantryTestServer second = builder.name("second").start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals(JobStateName.RUNNING, client.getJobStatus(survivor).state, "still running");
      assertTrue(second.log().contains("job " + survivor + ": following its"), second.log());
      Files.writeString(jobs.resolve(survivor).resolve("release"), "go");
      client.killJob(killLater);

      JobStatusInfo end = awaitFinal(client, survivor, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, () -> end.failureReason);
      assertEquals(0, end.exitCode);
      assertTrue(
          read(jobs.resolve(survivor), "stdout.txt").contains("released"),
          "the output written after the restart reaches the job's file");

      JobStatusInfo ended = awaitFinal(client, endsWhileDown, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, ended.state, () -> ended.failureReason);
      assertEquals(0, ended.exitCode);
      Path started = supervisor.resolve(endsWhileDown + ".started");
      Await.until(
          "the status file and the start record to be deleted once the job is final",
          LIMIT,
          () -> !Files.exists(endedStatus) && !Files.exists(started));

      JobStatusInfo killed = awaitFinal(client, killLater, LIMIT);
      assertEquals(JobStateName.KILLED, killed.state, () -> killed.failureReason);

      JobStatusInfo timedOut = awaitFinal(client, tooLong, LIMIT);
      assertEquals(JobStateName.FAILED, timedOut.state);
      assertTrue(
          timedOut.failureReason.contains("wall-time limit exceeded"), timedOut.failureReason);
    }
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + survivor + "'"),
        "the result staged out exactly once");
    assertEquals(
        1, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + endsWhileDown + "'"));
    assertEquals(
        0, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + killLater + "'"));
  }

  @Test
  void aCleanStopLeavesTheJobRunningAndTheNextServerFinishesIt() throws Exception {
    String id;
    try (GantryTestServer first = builder.name("first").start()) {
      JobManagement client = JobManagementClients.of(first);
      id =
          client.submitJob(
              RiskDatabase.valuationJob("outlives").shell(HELD_SCRIPT, 300).document());
      awaitStarted(first, client, id);
    } // close(): SIGTERM, the operator's stop
    Path jobDir = dir.resolve("server").resolve("jobs").resolve(id);
    assertFalse(
        Files.exists(jobDir.resolve("stdout.txt"))
            && read(jobDir, "stdout.txt").contains("released"));
    try (GantryTestServer second = builder.name("second").start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals(JobStateName.RUNNING, client.getJobStatus(id).state, "still running");
      assertTrue(second.log().contains("job " + id + ": following its"), second.log());
      Files.writeString(jobDir.resolve("release"), "go");
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, () -> end.failureReason);
      assertEquals(0, end.exitCode);
      assertTrue(
          read(jobDir, "stdout.txt").contains("released"),
          "the output written after the restart reaches the job's file");
    }
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"),
        "the result staged out exactly once");
  }

  @Test
  void aJobCannotForgeTheEndItsSupervisorRecords() throws Exception {
    try (GantryTestServer server = builder.start()) {
      JobManagement client = JobManagementClients.of(server);
      Path statusDir = server.dataDir().resolve("supervisor");
      String forge =
          "for f in "
              + statusDir
              + "/*.status /job/../supervisor/x.status; do"
              + " printf 'format=gantry-stepd-status-1\\nexit_status=0\\n' > \"$f\" && echo forged;"
              + " done; exit 3";
      String id = client.submitJob(TestJobs.job("forger").shell(forge, 60).document());
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.FAILED, end.state);
      assertEquals(3, end.exitCode);
      assertFalse(read(server.jobDirectory(id), "stdout.txt").contains("forged"));
    }
  }

  /**
   * The sample VaR job (mcvar on 2 ranks through mpirun, SQL and scp stage-in from the demo, SQL
   * stage-out): its ranks wait for a release file before they exec mcvar, so the server is surely
   * killed while the program runs.
   */
  @Test
  void theSampleMcvarJobSurvivesSigkillOfTheServerAndItsResultsLoadOnce() throws Exception {
    Path mcvar = STEPD.resolveSibling("mcvar");
    assertTrue(Files.isExecutable(mcvar), "build the node programs first: " + mcvar);
    Path programs = Files.createDirectories(dir.resolve("programs"));
    Path held = programs.resolve("mcvar-held");
    Files.writeString(
        held,
        "#!/bin/sh\necho started > /job/started\n"
            + "while [ ! -e /job/release ]; do sleep 0.1; done\nexec "
            + mcvar
            + " \"$@\"\n");
    Files.setPosixFilePermissions(programs, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(held, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), "admin password");
    Path dataDir = dir.resolve("mcvar-server");
    GantryTestServerBuilder sample =
        GantryTestServer.builder(dir.resolve("mcvar"))
            .dataDir(dataDir)
            .secure()
            .demo(300)
            .settings(
                Map.of(
                    "admin.password-file", adminPassword.toString(),
                    "jobs.allowed-executable-roots", mcvar.getParent() + " " + programs,
                    "jobs.supervisor", STEPD.toString()));
    Path repository = STEPD.getParent().getParent().getParent();
    String id;
    try (GantryTestServer first = sample.name("first").start()) {
      JobManagement client =
          JobManagementClients.of(first, new Login.Basic("admin", "admin password"));
      String xml =
          Files.readString(repository.resolve("jsdl-schema/examples/var-job.jsdl"))
              .replace(
                  "<gx:RemotePort>2222</gx:RemotePort>",
                  "<gx:RemotePort>" + first.demoSshPort().orElseThrow() + "</gx:RemotePort>")
              .replace(
                  "<gx:Executable>mcvar</gx:Executable>",
                  "<gx:Executable>" + held + "</gx:Executable>");
      id = client.submitJob(TestJobs.documentOf(xml));
      awaitStarted(first, client, id);
      first.killHard();
    }
    try (GantryTestServer second = sample.name("second").start()) {
      JobManagement client =
          JobManagementClients.of(second, new Login.Basic("admin", "admin password"));
      assertTrue(second.log().contains("job " + id + ": following its"), second.log());
      Files.writeString(second.jobDirectory(id).resolve("release"), "go");
      JobStatusInfo end = awaitFinal(client, id, Duration.ofMinutes(3));
      assertEquals(JobStateName.SUCCEEDED, end.state, () -> end.failureReason);
      assertEquals(
          8, client.getJobResults(id).stagedOut.size(), "every result file but node_pnl.csv.gz");
    } // the demo database is a file the server opens in one process at a time
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                new io.gantry.server.internal.demo.DemoMarket(dataDir.resolve("demo"), 300)
                    .jdbcUrl(),
                "sa",
                "");
        java.sql.PreparedStatement ps =
            c.prepareStatement(
                "select sum(count) from var_node_pnl_distribution where run_id = ?"
                    + " and node = 'BANK'")) {
      ps.setString(1, id);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertEquals(50000, rs.getLong(1), "the P&L distribution loaded once");
      }
    }
  }

  private static void awaitStarted(GantryTestServer server, JobManagement client, String id) {
    TestJobs.await(client, id, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    Await.until(
        "job " + id + " to start its program",
        LIMIT,
        () -> Files.exists(server.jobDirectory(id).resolve("started")));
  }

  private static String read(Path jobDir, String name) throws java.io.IOException {
    return Files.readString(jobDir.resolve(name));
  }
}
