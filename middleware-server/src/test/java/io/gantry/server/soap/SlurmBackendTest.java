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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry-server with {@code compute.backend=slurm} in front of a real two-node Slurm cluster
 * (network namespaces): failing programs, kills, and a server killed with -9 while its job runs in
 * Slurm. The tests of single jobs share one server; those that stop servers have their own.
 */
class SlurmBackendTest {
  private static final Duration LIMIT = Duration.ofMinutes(2);
  private static NamespaceCluster cluster;

  /** The server of the tests that neither stop nor kill it, started at first use. */
  private static GantryTestServer shared;

  @TempDir static Path sharedDir;
  @TempDir Path dir;

  @BeforeAll
  static void startCluster() {
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(2).slurm().start();
  }

  /**
   * Slurm starts the job under its owner's OS account (jobs.default-os-account, nobody), outside
   * any sandbox: the account must be able to pass through the test's folder to the job directory.
   */
  @BeforeEach
  void letJobAccountsPassThrough() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
  }

  @AfterAll
  static void stopServerAndCluster() {
    if (shared != null) {
      shared.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static GantryTestServer sharedServer() throws Exception {
    if (shared == null) {
      // see letJobAccountsPassThrough
      Files.setPosixFilePermissions(sharedDir, PosixFilePermissions.fromString("rwx--x--x"));
      shared =
          GantryTestServer.builder(sharedDir)
              .settings(ClusterBackendSettings.slurm(cluster))
              .start();
    }
    return shared;
  }

  @Test
  void aFailingProgramsExitCodeReachesTheJobsStatus() throws Exception {
    JobManagement client = JobManagementClients.of(sharedServer());
    String id =
        client.submitJob(TestJobs.job("fails").shell("echo failing >&2; exit 3", 60).document());
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, end.state);
    assertEquals(3, end.exitCode);
    assertTrue(end.failureReason.contains("Slurm: FAILED 3:0"), end.failureReason);
  }

  @Test
  void killingARunningJobCancelsItInSlurm() throws Exception {
    GantryTestServer server = sharedServer();
    JobManagement client = JobManagementClients.of(server);
    String id =
        client.submitJob(
            TestJobs.job("long").shell("echo started; exec sleep 300", 600).document());
    Path stdout = server.jobDirectory(id).resolve("stdout.txt");
    awaitText(stdout, "started");
    client.killJob(id);
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.KILLED, end.state, end.failureReason);
    assertTrue(end.failureReason.contains("CANCELLED"), end.failureReason);
    // Slurm may still list a cancelled job while its steps end (COMPLETING)
    Await.until(
        "Slurm to run nothing of the job any more",
        LIMIT,
        () -> cluster.onLogin("squeue", "-h").stdout().isBlank());
  }

  @Test
  void aServerKilledWithMinus9WhileItsJobRunsInSlurmFollowsItAgainAfterRestartAndStagesItOutOnce()
      throws Exception {
    RiskDatabase risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    Path dataDir = dir.resolve("server");
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.putAll(ClusterBackendSettings.slurm(cluster));
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir).dataDir(dataDir).settings(settings);
    ServerKilledMidJob.run(
        builder, "slurm", dataDir, cluster, risk, id -> dataDir.resolve("jobs").resolve(id), LIMIT);
  }

  @Test
  void aServerStoppedInOrderLeavesItsSlurmJobRunningAndTheNextOneFinishesIt() throws Exception {
    Path dataDir = dir.resolve("server");
    String id;
    try (GantryTestServer first =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .settings(ClusterBackendSettings.slurm(cluster))
            .start()) {
      JobManagement client = JobManagementClients.of(first);
      id =
          client.submitJob(
              TestJobs.job("outlives-stop")
                  .shell(
                      // the gate lies in the job's directory: the program runs in the node's job
                      // sandbox, which shows that directory and not the test's
                      "echo started; while [ ! -e release-stop ]; do sleep 0.2; done; echo done",
                      300)
                  .document());
      awaitText(dataDir.resolve("jobs").resolve(id).resolve("stdout.txt"), "started");
    } // a graceful stop: the Slurm job is neither cancelled nor failed
    assertTrue(
        cluster.onLogin("squeue", "-h", "-o", "%T").stdout().contains("RUNNING"),
        "still running in Slurm");
    Files.writeString(dataDir.resolve("jobs").resolve(id).resolve("release-stop"), "go");
    try (GantryTestServer second =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .settings(ClusterBackendSettings.slurm(cluster))
            .start()) {
      JobStatusInfo end = awaitFinal(JobManagementClients.of(second), id, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    }
    assertEquals(
        "started\ndone\n",
        Files.readString(dataDir.resolve("jobs").resolve(id).resolve("stdout.txt")));
  }

  static void awaitText(Path file, String text) {
    Await.fileContaining(file, text, LIMIT);
  }
}
