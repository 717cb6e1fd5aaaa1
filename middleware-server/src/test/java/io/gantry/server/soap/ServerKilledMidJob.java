package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.Await;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.function.Function;

/**
 * The kill-and-restart scenario of a backend whose jobs run in the cluster's Slurm: a server killed
 * with -9 while its job runs leaves the Slurm job running; the next server follows it again (still
 * RUNNING, not failed), and once the job ends stages its results out once and records its end once.
 */
final class ServerKilledMidJob {
  private ServerKilledMidJob() {}

  /**
   * Runs the scenario with servers from {@code builder} (its data directory {@code dataDir}, its
   * settings with {@code risk}'s data source), named {@code name}-first and {@code name}-second.
   *
   * @param jobDirectory where a job's directory lies, by the job's id
   * @return the job's id
   */
  static String run(
      GantryTestServerBuilder builder,
      String name,
      Path dataDir,
      NamespaceCluster cluster,
      RiskDatabase risk,
      Function<String, Path> jobDirectory,
      Duration limit)
      throws Exception {
    String id;
    try (GantryTestServer first = builder.name(name + "-first").start()) {
      JobManagement client = JobManagementClients.of(first);
      // The job runs until the test lets it go: the server is killed in the middle of it.
      id =
          client.submitJob(
              RiskDatabase.valuationJob("outlives")
                  .shell(
                      // the gate lies in the job's own directory, the one the program sees
                      // (on a node it runs in the job sandbox, where host paths are not)
                      "echo started; while [ ! -e release ]; do sleep 0.2; done; "
                          + RiskDatabase.RESULT_SCRIPT,
                      300)
                  .document());
      Await.fileContaining(jobDirectory.apply(id).resolve("stdout.txt"), "started", limit);
      assertEquals(JobStateName.RUNNING, client.getJobStatus(id).state);
      first.killHard();
    }
    assertTrue(
        cluster.onLogin("squeue", "-h", "-o", "%T").stdout().contains("RUNNING"),
        "the Slurm job outlives the server");

    try (GantryTestServer second = builder.name(name + "-second").start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals(
          JobStateName.RUNNING, client.getJobStatus(id).state, "followed again, not failed");
      Files.writeString(jobDirectory.apply(id).resolve("release"), "go");
      JobStatusInfo end = awaitFinal(client, id, limit);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
      assertEquals(0, end.exitCode);
    }
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"),
        "results staged out once");
    assertEquals(1, finalTransitions(dataDir, id), "the job ended once");
    return id;
  }

  /** How many times the job store recorded the job's end. */
  static int finalTransitions(Path dataDir, String id) throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:h2:file:" + dataDir.resolve("jobstore").resolve("gantry").toAbsolutePath(),
                "gantry",
                "");
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM gantry_job_transition"
                    + " WHERE job_id = ? AND to_state IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'KILLED')")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertFalse(rs.wasNull());
        return rs.getInt(1);
      }
    }
  }
}
