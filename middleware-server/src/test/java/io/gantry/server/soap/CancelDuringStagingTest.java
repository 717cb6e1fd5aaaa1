package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cancelling a job interrupts its stage-in thread, which may be inside a job-store write at that
 * moment. The job store must survive it: an interrupted file channel must not close the server's
 * database for every later request.
 */
class CancelDuringStagingTest {
  static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    RiskDatabase risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("slots.total", "1");
    settings.put("staging.parallelism", "4");
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void jobsCancelledWhileTheyStageInLeaveTheServerWorking() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String id = client.submitJob(RiskDatabase.valuationJob("cancel-" + i).document());
      ids.add(id);
      try {
        client.cancelJob(id);
      } catch (JobStateFault e) {
        // it got through staging to RUNNING first: fine, it will end on its own
      }
    }
    for (String id : ids) {
      assertTrue(TestJobs.isFinal(awaitFinal(client, id, LIMIT).state));
    }
    String after = client.submitJob(RiskDatabase.valuationJob("after").document());
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, after, LIMIT).state);
  }
}
