package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ValidationResult;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks before the computation: a data source that refuses the job's credential fails the
 * submission, naming the stage, the step and the data source, never the password; the same database
 * with the right credential is accepted, before and after the refusal.
 */
class ConnectionCheckAtSubmitTest {
  static final Duration LIMIT = Duration.ofSeconds(60);
  static final String WRONG = "not-the-password";

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    Path password = dir.resolve("wrong-password");
    Files.writeString(password, WRONG);
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    settings.put("datasource.wrong.url", settings.get("datasource.risk.url"));
    settings.put("datasource.wrong.user", settings.get("datasource.risk.user"));
    settings.put("datasource.wrong.password-file", password.toString());
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static TestJobs resultJob(String stageOutTo) {
    return TestJobs.job("to-" + stageOutTo)
        .shell(RiskDatabase.RESULT_SCRIPT.replace("$(($(wc -l < positions.csv) - 1))", "7"), 60)
        .sqlStageOut(
            stageOutTo,
            "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
            "result.csv");
  }

  @Test
  void aWrongStageOutPasswordFailsTheSubmissionNotTheJob() throws Exception {
    String good = client.submitJob(resultJob("risk").document());
    InvalidJobFault refused =
        assertThrows(InvalidJobFault.class, () -> client.submitJob(resultJob("wrong").document()));
    Problem problem =
        refused.getFaultInfo().problems.stream()
            .filter(p -> p.severity.equals("ERROR"))
            .findFirst()
            .orElseThrow();
    assertEquals("JobDefinition/JobDescription/PostDataStaging", problem.path);
    assertTrue(
        problem.message.startsWith(
            "stage-out step SQL load of result.csv (group 1): cannot connect to data source"
                + " 'wrong'"),
        problem.message);
    assertTrue(problem.message.contains("refused the login"), problem.message);
    assertFalse(problem.message.contains(WRONG), "no password in the answer");
    assertFalse(server.log().contains(WRONG), "nor in the server's log");

    ValidationResult validated = client.validateJob(resultJob("wrong").document());
    assertFalse(validated.valid, "validateJob says the same");
    // the right credential is not refused from the memory of the wrong one, nor the other way
    String again = client.submitJob(resultJob("risk").document());
    assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(client, good, LIMIT).state);
    assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(client, again, LIMIT).state);
    assertThrows(InvalidJobFault.class, () -> client.submitJob(resultJob("wrong").document()));
  }
}
