package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
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
            .settings(ClusterBackendSettings.slurmOverSsh(cluster, root))
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
    settings.putAll(ClusterBackendSettings.slurmOverSsh(cluster, root));
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir).dataDir(dataDir).settings(settings);
    String id =
        ServerKilledMidJob.run(builder, "cluster", dataDir, cluster, risk, root::resolve, LIMIT);
    assertTrue(!Files.exists(dataDir.resolve("jobs").resolve(id)), "nothing staged locally");
  }
}
