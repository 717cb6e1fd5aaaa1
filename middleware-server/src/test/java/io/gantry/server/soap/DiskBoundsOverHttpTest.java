package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ValidationResult;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disk bounds of one job: output and staged bytes, wall time at validation, and finished jobs'
 * directories removed after the retention period with their records kept.
 */
class DiskBoundsOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("limits.job-output-bytes", "10M");
    settings.put("limits.job-staged-bytes", "100");
    settings.put("limits.max-wall-time", "PT1H");
    settings.put("limits.wall-time", "PT10M");
    settings.put("jobs.retention", "PT3S");
    settings.put("storage.check-interval", "PT0.2S");
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aJobWriting200MegabytesOfStdoutFailsNamingTheSetting() throws Exception {
    String id =
        client.submitJob(TestJobs.job("flood").shell("head -c 200000000 /dev/zero", 60).document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertTrue(status.failureReason.contains("limits.job-output-bytes"), status.failureReason);
  }

  @Test
  void aJobStillWritingIsStoppedWhileItRuns() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("slow-flood")
                .shell("while true; do head -c 1000000 /dev/zero; sleep 0.05; done", 60)
                .document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertTrue(
        status.failureReason.contains("limits.job-output-bytes")
            && status.failureReason.contains("the program was stopped"),
        status.failureReason);
    assertTrue(
        status.finished.toEpochMilli() - status.started.toEpochMilli() < 30_000,
        "stopped, not timed out");
  }

  @Test
  void stagedInputOverTheLimitFailsTheJobNamingTheSetting() throws Exception {
    String id = client.submitJob(RiskDatabase.valuationJob("too-much-input").document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertTrue(status.failureReason.contains("limits.job-staged-bytes"), status.failureReason);
    assertTrue(status.exitCode == null, "the program never ran");
  }

  @Test
  void aWallTimeLimitAboveTheMaximumIsAValidationProblemAtItsElement() throws Exception {
    ValidationResult result =
        client.validateJob(TestJobs.job("long").shell("true", 7200).document());
    assertFalse(result.valid);
    Problem p = result.problems.get(0);
    assertTrue(p.message.contains("limits.max-wall-time") && p.message.contains("3600"), p.message);
    assertTrue(p.line > 0 && p.column > 0, "line " + p.line + ":" + p.column);
    assertTrue(p.path.endsWith("WallTimeLimit"), p.path);
  }

  @Test
  void aFinishedJobsDirectoryIsRemovedAfterRetentionAndItsOutputSaysSo() throws Exception {
    String id = client.submitJob(TestJobs.job("kept-briefly").shell("echo hello", 30).document());
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, id, LIMIT).state);
    Path jobDir = server.dataDir().resolve("jobs").resolve(id);
    Await.until(
        "the job directory to be removed after jobs.retention",
        Duration.ofSeconds(20),
        () -> !Files.exists(jobDir));

    OutputChunk out = client.getJobOutput(id, OutputStreamName.STDOUT, 0, 1000);
    assertEquals(0, out.data.length);
    assertTrue(out.complete);
    assertNotNull(out.note);
    assertTrue(out.note.contains("jobs.retention") && out.note.contains("removed"), out.note);
    assertEquals(JobStateName.SUCCEEDED, client.getJobStatus(id).state, "the record stays");
    assertFalse(client.getJobAudit(id).entries.isEmpty(), "the audit trail stays");
  }

  @Test
  void aRunningJobsDirectoryIsNotRemoved() throws Exception {
    String id =
        client.submitJob(TestJobs.job("long-running").shell("sleep 5; echo done", 30).document());
    await(client, id, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    Thread.sleep(4000); // longer than jobs.retention
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, id, LIMIT).state);
    assertEquals(
        "done\n",
        new String(
            client.getJobOutput(id, OutputStreamName.STDOUT, 0, 100).data,
            java.nio.charset.StandardCharsets.UTF_8));
  }
}
