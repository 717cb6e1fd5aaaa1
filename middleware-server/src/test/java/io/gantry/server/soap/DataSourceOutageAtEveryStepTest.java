package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.faults.FaultPause;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data source's database going away at each staging step: one server, paused at every staging
 * fault point ({@link FaultPause}); for each case the test takes the job's PostgreSQL database away
 * at one point (every session to it ended, new ones refused, as a stopped database looks to its
 * clients; the PostgreSQL server is the suite's shared one, which other tests use) and brings it
 * back once the job is final. The documented rule: a connection is tried three times with doubling
 * backoff, then the job fails naming the data source. Checked: the job ends once, FAILED naming the
 * source; its program ran at most once; a stage-out step's rows are all there or none (the ledger
 * row with them); and once the database is back, the failed stage-out retried commits every step
 * once, the step committed before the outage skipped.
 */
class DataSourceOutageAtEveryStepTest {
  static final Duration LIMIT = Duration.ofSeconds(90);

  /** staging.connect-timeout of the test's server (scaled): long enough for a live database. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

  static final List<FaultPoint> PAUSED =
      List.of(
          FaultPoint.STAGE_IN_GROUP_STARTED,
          FaultPoint.STAGE_OUT_GROUP_STARTED,
          FaultPoint.STAGE_OUT_STEP_COMMITTING,
          FaultPoint.STAGE_OUT_STEP_COMMITTED);

  @TempDir static Path dir;
  static RiskDatabase risk;
  static String database;
  static Path pauses;
  static Path runs;
  static GantryTestServer server;
  static JobManagement client;

  /** The number of the next pause the server announces (they count from 1 over all jobs). */
  static int nextPause = 1;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    try (Connection c = risk.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_database()")) {
      rs.next();
      database = rs.getString(1);
    }
    pauses = Files.createDirectories(dir.resolve("pauses"));
    runs = Files.createDirectories(dir.resolve("runs"));
    Files.setPosixFilePermissions(runs, PosixFilePermissions.fromString("rwxrwxrwx"));
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("filesystem.RUNS.path", runs.toString()); // the sandbox shows it at /fs/RUNS
    // A refused connection costs an attempt its whole timeout (the pool waits that long for one):
    // 3 s instead of the default 10 s keeps the three attempts of the stage-in case at ~12 s.
    settings.put("staging.connect-timeout", Await.scaled(CONNECT_TIMEOUT).toString());
    server =
        GantryTestServer.builder(dir)
            .name("outage")
            .settings(settings)
            .jvmOptions(
                List.of(
                    "-Xmx256m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-D"
                        + FaultPause.PROPERTY
                        + "="
                        + PAUSED.stream()
                            .map(FaultPoint::pointName)
                            .collect(Collectors.joining(",")),
                    "-D" + FaultPause.DIRECTORY_PROPERTY + "=" + pauses))
            .start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    available(true);
  }

  @Test
  void aDatabaseGoneAtEachStagingStepFailsTheJobOnceNamingItAndNeverHalfWritesAStep()
      throws Exception {
    // before the extract: nothing staged in, the program never runs
    String in = outageAt("in", FaultPoint.STAGE_IN_GROUP_STARTED, 0, 0);
    assertEquals(0, runsOf(in), "the program of a job whose stage-in failed never ran");
    // before stage-out's first step, and with its rows written but not committed: none stays
    outageAt("out", FaultPoint.STAGE_OUT_GROUP_STARTED, 0, 1);
    String committing = outageAt("committing", FaultPoint.STAGE_OUT_STEP_COMMITTING, 0, 1);
    // after group 1's step committed: its row stays, group 2's step never began
    String committed = outageAt("committed", FaultPoint.STAGE_OUT_STEP_COMMITTED, 1, 1);
    assertEquals(0, risk.count(rows(committed, "job_result") + " AND value_at_risk = -1"));

    // the database back: a retried stage-out commits each step once, the committed one skipped
    for (String id : List.of(committing, committed)) {
      client.retryStageOut(id);
      JobStatusInfo end = drive(id, null);
      assertEquals(JobStateName.SUCCEEDED, end.state, id + ": " + end.failureReason);
      assertEquals(2, risk.count(rows(id, "job_result")), id + ": each step's row once");
      assertEquals(2, ledgerRows(id), id + ": each ledger row");
      assertEquals(1, runsOf(id), id + ": a retried stage-out does not run the program");
    }
    assertTrue(
        client.getJobAudit(committed).entries.stream()
            .anyMatch(e -> e.text != null && e.text.contains("already done by an earlier attempt")),
        "the retry says group 1's step was committed before");
  }

  /**
   * Runs a job whose database goes away at {@code point} (its first time there) until the job is
   * final, then brings the database back; checks the job FAILED once naming the data source, with
   * {@code rows} result rows and ledger rows left and its program run {@code programRuns} times.
   */
  private static String outageAt(String name, FaultPoint point, int rows, int programRuns)
      throws Exception {
    String id = client.submitJob(TestJobs.documentOf(FaultAtEveryStepTest.job("outage-" + name)));
    JobStatusInfo end = drive(id, point);
    assertEquals(JobStateName.FAILED, end.state, point.pointName());
    assertTrue(
        end.failureReason.contains(RiskDatabase.NAME),
        point.pointName() + ": the reason names the data source: " + end.failureReason);
    List<AuditEntry> audit = client.getJobAudit(id).entries;
    assertEquals(
        1,
        audit.stream().filter(e -> e.toState != null && TestJobs.isFinal(e.toState)).count(),
        point.pointName() + ": one end in the audit trail");
    assertEquals(rows, risk.count(rows(id, "job_result")), point.pointName() + ": result rows");
    assertEquals(rows, ledgerRows(id), point.pointName() + ": ledger rows");
    assertEquals(programRuns, runsOf(id), point.pointName() + ": program runs");
    return id;
  }

  /**
   * Resumes each pause of the server until the job is final; at the first pause at {@code outage}
   * (none when null) the job's database is taken away first, and it is back when this returns.
   */
  private static JobStatusInfo drive(String id, FaultPoint outage) throws Exception {
    boolean[] down = {false};
    try {
      return Await.value(
          "job " + id + " to end",
          LIMIT,
          () -> {
            Path paused = pauses.resolve("paused-" + nextPause);
            while (Files.exists(paused)) {
              String at = Files.readString(paused);
              if (outage != null && !down[0] && at.equals(outage.pointName())) {
                available(false);
                down[0] = true;
              }
              Files.createFile(pauses.resolve("resume-" + nextPause));
              nextPause++;
              paused = pauses.resolve("paused-" + nextPause);
            }
            return client.getJobStatus(id);
          },
          s -> TestJobs.isFinal(s.state),
          s -> s.state + " " + s.failureReason);
    } finally {
      if (down[0]) {
        available(true);
      }
    }
  }

  /**
   * Takes the job's database away (every session to it ended, new ones refused: what its clients
   * see of a stopped database), or brings it back.
   */
  private static void available(boolean on) throws Exception {
    if (database == null) {
      return;
    }
    try (Connection c = EmbeddedPostgresServer.shared().connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("ALTER DATABASE \"" + database + "\" ALLOW_CONNECTIONS " + on);
      if (!on) {
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                + database
                + "'");
      }
    }
  }

  private static String rows(String id, String table) {
    return "SELECT COUNT(*) FROM " + table + " WHERE job_id = '" + id + "'";
  }

  /** The job's rows in the stage-out ledger, which the first stage-out into a database creates. */
  private static long ledgerRows(String id) throws Exception {
    boolean exists =
        risk.count(
                "SELECT COUNT(*) FROM information_schema.tables"
                    + " WHERE table_name = 'gantry_stage_out_ledger'")
            > 0;
    return exists ? risk.count(rows(id, "gantry_stage_out_ledger")) : 0;
  }

  private static long runsOf(String id) throws Exception {
    Path file = runs.resolve(id);
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }
}
