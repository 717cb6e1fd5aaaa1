package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.compute.ClusterOverSshTest;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
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
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill and restart on a cluster reached over SSH (compute.ssh-host): scancel goes over the SSH
 * connection, and a server killed with -9 while its job runs in the cluster's Slurm follows it
 * again after restart, over a new connection, and stages its results out of the cluster once.
 */
class ClusterOverSshRestartTest {
  private static final Duration LIMIT = Duration.ofMinutes(3);
  private static NamespaceCluster cluster;

  @TempDir static Path dir;

  @BeforeAll
  static void startCluster() {
    cluster = NamespaceCluster.builder().nodes(1).cpusPerNode(2).slurm().sshd().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void killingARunningJobCancelsItInTheClustersSlurmOverSsh() throws Exception {
    Path root = dir.resolve("root-kill");
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .dataDir(dir.resolve("kill"))
            .settings(ClusterOverSshTest.clusterSettings(cluster, root))
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      String id =
          client.submitJob(
              TestJobs.job("long").shell("echo started; exec sleep 300", 600).document());
      Await.fileContaining(root.resolve(id).resolve("stdout.txt"), "started", LIMIT);
      client.killJob(id);
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.KILLED, end.state, end.failureReason);
      assertTrue(end.failureReason.contains("CANCELLED"), end.failureReason);
    }
    assertTrue(cluster.onLogin("squeue", "-h").stdout().isBlank(), "nothing left in Slurm");
  }

  @Test
  void aServerKilledWithMinus9FollowsItsClusterJobAgainAndStagesItOutOnce() throws Exception {
    RiskDatabase risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    Path root = dir.resolve("root-restart");
    Path dataDir = dir.resolve("restart");
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.putAll(ClusterOverSshTest.clusterSettings(cluster, root));
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir).dataDir(dataDir).settings(settings);
    Path release = dir.resolve("release");

    String id;
    try (GantryTestServer first = builder.name("cluster-first").start()) {
      JobManagement client = JobManagementClients.of(first);
      id =
          client.submitJob(
              RiskDatabase.valuationJob("outlives")
                  .shell(
                      "echo started; while [ ! -e "
                          + release
                          + " ]; do sleep 0.2; done; "
                          + RiskDatabase.RESULT_SCRIPT,
                      300)
                  .document());
      Await.fileContaining(root.resolve(id).resolve("stdout.txt"), "started", LIMIT);
      assertEquals(JobStateName.RUNNING, client.getJobStatus(id).state);
      first.killHard();
    }
    assertTrue(
        cluster.onLogin("squeue", "-h", "-o", "%T").stdout().contains("RUNNING"),
        "the Slurm job outlives the server");

    try (GantryTestServer second = builder.name("cluster-second").start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals(
          JobStateName.RUNNING, client.getJobStatus(id).state, "followed again, not failed");
      Files.writeString(release, "go");
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
      assertEquals(0, end.exitCode);
    }
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"),
        "results staged out of the cluster once");
    assertEquals(1, finalTransitions(dataDir, id), "the job ended once");
    assertTrue(!Files.exists(dataDir.resolve("jobs").resolve(id)), "nothing staged locally");
  }

  private static int finalTransitions(Path dataDir, String id) throws Exception {
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
        return rs.getInt(1);
      }
    }
  }
}
