package io.gantry.server.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample VaR job run again the same day after the book and the market moved: a server of its
 * own, since it changes the demo database between the runs (SampleVarJobTest's runs read it as
 * made).
 */
class SampleVarIntradayRerunTest {
  @TempDir Path dir;
  private GantryTestServer server;

  @AfterEach
  void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void anIntradayReRunSeesANewTradeAndAMovedCloseNothingIsCached() throws Exception {
    Path dataDir = dir.resolve("server");
    GantryTestServerBuilder builder = SampleVarJobTest.sampleServer(dir, dataDir);
    server = builder.start();
    JobManagement client = SampleVarJobTest.adminClient(server);
    String first = client.submitJob(new JobDocument(SampleVarJobTest.sampleJob(server)));
    assertEquals(
        JobStateName.SUCCEEDED, TestJobs.awaitFinal(client, first, Duration.ofMinutes(3)).state);
    Map<String, StagedFileInfo> before =
        SampleVarJobTest.byTarget(client.getJobResults(first).stagedIn);
    server.close(); // the demo database is a file of the server's, which H2 opens in one process
    try (Connection c = SampleVarJobTest.demoDatabase(dataDir);
        java.sql.Statement s = c.createStatement()) {
      // a trade booked after the first run, and the close moved (what scripts/move-demo-levels
      // does)
      s.execute(
          "insert into position (business_date, position_id, portfolio_id, instrument, factor_id,"
              + " currency, quantity) values (date '2026-11-20', 'P-NEW', 'EQ-US', 'spot',"
              + " 'EQ-US-01', 'USD', 1000)");
      s.execute(
          "update factor_history set level = cast(level * 1.01 as decimal(20, 10))"
              + " where as_of = date '2026-11-20' and factor_id like 'EQ-%'");
    }
    server = builder.start();
    client = SampleVarJobTest.adminClient(server);
    String second = client.submitJob(new JobDocument(SampleVarJobTest.sampleJob(server)));
    JobStatusInfo status = TestJobs.awaitFinal(client, second, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    Map<String, StagedFileInfo> after =
        SampleVarJobTest.byTarget(client.getJobResults(second).stagedIn);
    for (String file :
        List.of(
            "positions.csv.gz",
            "params.csv.gz",
            "factor-ids.csv",
            "factors.csv.gz",
            "history.csv.gz")) {
      assertTrue(
          after.get(file).step.startsWith("sql-extract["), file + ": " + after.get(file).step);
    }
    assertEquals(before.get("positions.csv.gz").rows + 1, after.get("positions.csv.gz").rows);
    assertTrue(
        !before.get("factors.csv.gz").checksum.equals(after.get("factors.csv.gz").checksum),
        "the closes moved, so their extract differs");
  }
}
