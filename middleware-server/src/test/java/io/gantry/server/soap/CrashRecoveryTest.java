package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the server while 20 jobs are in every kind of state, then a restart on the same data
 * directory: every accepted job is still known, every job ends in exactly one final state, and no
 * stage-out loads its rows twice.
 */
class CrashRecoveryTest {
  static final int JOBS = 20;
  static final int SLOTS = 2;

  /**
   * Stage-in slower than computing, so that at the crash some jobs wait to stage in, one is staging
   * in, some are staged, some run and some have ended.
   */
  static final String SLOW_POSITIONS_QUERY =
      "SELECT p.position_id, p.quantity FROM position p,"
          + " (SELECT pg_sleep(0.25)) AS pause ORDER BY p.position_id";

  static final Duration LIMIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void afterKill9AndRestartEveryJobEndsOnceAndNoResultRowIsDuplicated() throws Exception {
    // The risk database must outlive the Gantry server, as a bank's database does: an H2 file
    // opened inside the killed JVM would lose its last commits (H2 writes them up to 500 ms
    // later), which would test H2, not Gantry.
    RiskDatabase risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    Path dataDir = dir.resolve("server");
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("staging.parallelism", "1");
    settings.put("slots.total", Integer.toString(SLOTS));
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir).dataDir(dataDir).settings(settings);

    List<String> ids = new ArrayList<>();
    Map<String, JobStatusInfo> beforeCrash = new HashMap<>();
    try (GantryTestServer first = builder.name("first").start()) {
      JobManagement client = JobManagementClients.of(first);
      for (int i = 0; i < JOBS; i++) {
        TestJobs job =
            i == 3
                ? TestJobs.job("crash-" + i).posix(60, "/bin/false")
                : RiskDatabase.valuationJob("crash-" + i, SLOW_POSITIONS_QUERY)
                    .shell("sleep 0.4; " + RiskDatabase.RESULT_SCRIPT, 60);
        ids.add(client.submitJob(job.document()));
      }
      client.cancelJob(ids.get(JOBS - 2)); // waits behind 17 others: certainly not started
      awaitSucceeded(client, ids, 4);
      for (JobStatusInfo s : client.getJobStatuses(ids)) {
        beforeCrash.put(s.jobId, s);
      }
      first.killHard();
    }
    System.out.println("job states at the crash: " + states(beforeCrash));
    assertTrue(
        states(beforeCrash).size() >= 3,
        "jobs in several states at the crash: " + states(beforeCrash));

    int startedSinceSnapshot = 0;
    try (GantryTestServer second = builder.name("second").start()) {
      JobManagement client = JobManagementClients.of(second);
      for (String id : ids) {
        JobStatusInfo end =
            awaitFinal(client, id, LIMIT); // also: every accepted job is still known
        JobStatusInfo before = beforeCrash.get(id);
        if (TestJobs.isFinal(before.state)) {
          assertEquals(before.state, end.state, "a job that had ended stays as it ended: " + id);
          assertEquals(before.finished, end.finished);
        }
        if (waiting(before.state) && end.state != JobStateName.SUCCEEDED) {
          // it started between the snapshot and the kill: only as many as there are slots
          assertTrue(
              end.failureReason.startsWith("server restarted while running"), end.failureReason);
          startedSinceSnapshot++;
        }
      }
    }
    assertTrue(startedSinceSnapshot <= SLOTS, "waiting jobs run after the restart");
    assertEveryJobEndedExactlyOnce(dataDir, ids);
    assertEquals(
        0,
        risk.count(
            "SELECT COUNT(*) FROM (SELECT job_id FROM job_result"
                + " GROUP BY job_id HAVING COUNT(*) > 1)"),
        "no stage-out loaded its rows twice");
    for (String id : ids) {
      long rows = risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'");
      String state = finalState(dataDir, id);
      assertEquals(
          state.equals("SUCCEEDED") ? 1 : 0, rows, "result rows of " + state + " job " + id);
    }
  }

  private static void awaitSucceeded(JobManagement client, List<String> ids, int count) {
    Await.value(
        count + " jobs to succeed",
        LIMIT,
        () ->
            client.getJobStatuses(ids).stream()
                .filter(s -> s.state == JobStateName.SUCCEEDED)
                .count(),
        succeeded -> succeeded >= count);
  }

  private static boolean waiting(JobStateName state) {
    return state == JobStateName.QUEUED
        || state == JobStateName.STAGING_IN
        || state == JobStateName.STAGED;
  }

  private static Map<JobStateName, Integer> states(Map<String, JobStatusInfo> jobs) {
    Map<JobStateName, Integer> counts = new EnumMap<>(JobStateName.class);
    jobs.values().forEach(s -> counts.merge(s.state, 1, Integer::sum));
    return counts;
  }

  /** From the job store itself, after the server stopped: one final transition per job. */
  private static void assertEveryJobEndedExactlyOnce(Path dataDir, List<String> ids)
      throws Exception {
    try (Connection c = jobStore(dataDir);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM gantry_job_transition"
                    + " WHERE job_id = ? AND to_state IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'KILLED')")) {
      for (String id : ids) {
        ps.setString(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertEquals(1, rs.getInt(1), "final transitions of job " + id);
        }
      }
    }
  }

  private static String finalState(Path dataDir, String id) throws Exception {
    try (Connection c = jobStore(dataDir);
        PreparedStatement ps = c.prepareStatement("SELECT state FROM gantry_job WHERE id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  private static Connection jobStore(Path dataDir) throws Exception {
    return DriverManager.getConnection(
        "jdbc:h2:file:" + dataDir.resolve("jobstore").resolve("gantry").toAbsolutePath(),
        "gantry",
        "");
  }
}
