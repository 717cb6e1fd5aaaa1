package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stage-in does not start on a staging file system with less than staging.min-free-bytes free. */
class FreeSpaceCheckOverHttpTest {
  @TempDir Path dir;

  @Test
  void aJobIsNotStagedInWhenTheDiskHasLessThanTheMinimumFree() throws Exception {
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .settings(Map.of("staging.min-free-bytes", "1000000T"))
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      String id = client.submitJob(TestJobs.job("no-room").shell("echo hello", 30).document());
      JobStatusInfo status = awaitFinal(client, id, Duration.ofSeconds(30));
      assertEquals(JobStateName.FAILED, status.state);
      assertTrue(status.failureReason.contains("staging.min-free-bytes"), status.failureReason);
    }
  }
}
