package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
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
 * The meta-scheduler's promise, seen from a client: jobs stage in while another job computes, and
 * start strictly in submission order, a smaller job never overtaking a wider one that waits for
 * slots (design: "The data path"; ComputeQueue).
 */
class FcfsOverHttpTest {
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
    settings.put("staging.parallelism", "2");
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void laterJobsStageInWhileOneRunsThenStartInSubmissionOrderWithoutOvertaking() throws Exception {
    // each job notes when it starts in its own directory (its sandbox shows it nothing else)
    String record = "echo \"$(date +%s%N) $0\" >> order.log";
    String a =
        client.submitJob(
            TestJobs.job("a")
                .shell(
                    record.replace("$0", "A") + "; while [ ! -e release ]; do sleep 0.1; done", 60)
                .document());
    Path release = server.jobDirectory(a).resolve("release");
    await(client, a, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");

    String positions = "SELECT position_id, quantity FROM position";
    String wide =
        client.submitJob(
            TestJobs.job("b-two-slots")
                .sqlStageIn(RiskDatabase.NAME, 1, positions, "positions.csv")
                .mpirun(
                    2,
                    60,
                    "/bin/sh",
                    "-c",
                    record.replace("$0", "B") + "; sleep 0.3; " + record.replace("$0", "B-done"))
                .document());
    String narrow =
        client.submitJob(
            TestJobs.job("c-one-slot")
                .sqlStageIn(RiskDatabase.NAME, 1, positions, "positions.csv")
                .shell(record.replace("$0", "C"), 60)
                .document());
    await(client, wide, LIMIT, s -> s.state == JobStateName.STAGED, "STAGED");
    await(client, narrow, LIMIT, s -> s.state == JobStateName.STAGED, "STAGED");
    assertEquals(
        JobStateName.RUNNING,
        client.getJobStatus(a).state,
        "both staged in while the first job still computed");
    assertEquals(RiskDatabase.POSITIONS, client.getJobResults(wide).stagedIn.get(0).rows);

    // one slot is free and the narrow job would fit, but the wide one came first
    Thread.sleep(1000);
    assertEquals(JobStateName.STAGED, client.getJobStatus(narrow).state, "no overtaking");
    assertFalse(Files.exists(server.jobDirectory(narrow).resolve("order.log")));

    Files.createFile(release);
    for (String id : List.of(a, wide, narrow)) {
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, id, LIMIT).state);
    }
    List<String> order = new java.util.ArrayList<>();
    for (String id : List.of(a, wide, narrow)) {
      order.addAll(Files.readAllLines(server.jobDirectory(id).resolve("order.log")));
    }
    order.sort(java.util.Comparator.comparingLong(line -> Long.parseLong(line.split(" ")[0])));
    assertEquals(
        List.of("A", "B", "B", "B-done", "B-done", "C"),
        order.stream().map(line -> line.split(" ")[1]).toList(),
        "started in submission order; C only after both ranks of B ended");
  }
}
