package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code retryStageOut}: a job whose program succeeded and whose stage-out failed in its second
 * group, after the first committed, has only the steps that did not commit run again, exactly once
 * through the stage-out ledger, and its audit trail says who retried it. A job waiting {@code
 * After} it keeps waiting while its stage-out can be retried, and runs once the retry succeeded.
 */
class RetryStageOutTest {
  static final Duration LIMIT = Duration.ofSeconds(90);

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aStageOutThatFailedInItsSecondGroupIsRetriedWithoutDuplicatingTheFirst() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("retried")
                .shell(
                    "printf 'job_id,value_at_risk\\n%s,7\\n' \"$GANTRY_JOB_ID\" > result.csv;"
                        + " printf 'job_id,v\\n%s,8\\n%s,9\\n' \"$GANTRY_JOB_ID\""
                        + " \"$GANTRY_JOB_ID\" > late.csv",
                    60)
                .sqlStageOut(
                    RiskDatabase.NAME,
                    1,
                    "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
                    "result.csv")
                .sqlStageOut(
                    RiskDatabase.NAME,
                    2,
                    "INSERT INTO late_result (job_id, v) VALUES (?, ?)",
                    "late.csv")
                .document());
    JobStatusInfo failed = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, failed.state);
    assertEquals(0, failed.exitCode, "the program itself succeeded");
    assertEquals(1, resultRows(id), "group 1 committed");
    String after =
        client.submitJob(TestJobs.job("after-retried").posix(60, "/bin/true").after(id).document());
    JobStatusInfo waiting = client.getJobStatus(after);
    assertEquals(JobStateName.QUEUED, waiting.state, waiting.failureReason);
    assertEquals(
        "Dependency(after:" + id + " stage-out failed: retry-stage-out " + id + " runs this job)",
        waiting.reason);

    try (Connection c = risk.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE late_result (job_id VARCHAR(32), v INTEGER)");
    }
    JobStatusInfo retried = client.retryStageOut(id);
    assertTrue(
        retried.state == JobStateName.STAGING_OUT || retried.state == JobStateName.SUCCEEDED,
        retried.state.toString());
    assertNull(retried.failureReason, "what failed is being redone");
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    JobStatusInfo afterEnd = awaitFinal(client, after, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, afterEnd.state, afterEnd.failureReason);
    assertEquals(1, resultRows(id), "group 1's rows were not loaded again");
    assertEquals(
        2,
        risk.count("SELECT COUNT(*) FROM late_result WHERE job_id = '" + id + "'"),
        "group 2's rows arrived once");

    List<AuditEntry> audit = client.getJobAudit(id).entries;
    assertTrue(
        audit.stream().anyMatch(e -> e.text != null && e.text.contains("stage-out retried by")),
        "the audit trail records the retry: " + audit);

    JobStateFault again = assertThrows(JobStateFault.class, () -> client.retryStageOut(id));
    assertTrue(again.getMessage().contains("SUCCEEDED"), again.getMessage());
    assertEquals(1, resultRows(id));
  }

  @Test
  void aJobWhoseProgramFailedHasNoStageOutToRetry() throws Exception {
    String id = client.submitJob(TestJobs.job("program-failed").posix(60, "/bin/false").document());
    assertEquals(JobStateName.FAILED, awaitFinal(client, id, LIMIT).state);
    JobStateFault refused = assertThrows(JobStateFault.class, () -> client.retryStageOut(id));
    assertTrue(
        refused.getMessage().contains("did not fail in its stage-out"), refused.getMessage());
    assertEquals(JobStateName.FAILED, client.getJobStatus(id).state);
  }

  private static long resultRows(String id) throws Exception {
    return risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'");
  }
}
