package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl, demo on) run with the same text on every
 * compute backend: mpirun on the server's host, Open MPI over ssh across two sshd hosts, and a
 * two-node Slurm cluster. Every backend writes the same numbers into the demo database, and on
 * every backend a second job stages the first one's VaR summary in ({@code gantry-job:}) byte for
 * byte and reads it where its program runs. The three backends' runs go side by side.
 */
class SameJobOnEveryBackendTest {
  private static final Path MCVAR = SampleVarRun.MCVAR;
  private static NamespaceCluster cluster;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    // Slurm runs jobs under their owner's OS account outside a sandbox: it must reach the job
    // directory.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(2).slurm().sshd().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theSampleVarJobGivesTheSameResultsOnLocalMpirunHostsAndSlurm() throws Exception {
    Map<String, String> mpirunHosts =
        ClusterBackendSettings.mpirunHosts(
            cluster, ClusterBackendSettings.mpirunOnLogin(cluster, work));
    List<List<String>> results =
        SampleVarRun.sideBySide(
            List.of(
                () -> run("local", Map.of()),
                () -> run("mpirun-hosts", mpirunHosts),
                () -> run("slurm", ClusterBackendSettings.slurm(cluster))));
    List<String> local = results.get(0);
    List<String> hosts = results.get(1);
    List<String> slurm = results.get(2);

    assertFalse(local.isEmpty());
    assertEquals(local, hosts, "mpirun-hosts");
    assertEquals(local, slurm, "slurm");
  }

  /**
   * Runs the sample on a fresh server with {@code backend} settings; its results, run id left out.
   */
  private List<String> run(String name, Map<String, String> backend) throws Exception {
    Path dataDir = work.resolve(name);
    Map<String, String> settings = new HashMap<>(SampleVarRun.settings());
    settings.putAll(backend);
    try (GantryTestServer server =
        GantryTestServer.builder(work.resolve(name + "-server"))
            .dataDir(dataDir)
            .settings(settings)
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      String id = SampleVarRun.submit(server, client);
      JobStatusInfo end = TestJobs.awaitFinal(client, id, Duration.ofMinutes(3));
      assertEquals(JobStateName.SUCCEEDED, end.state, name + ": " + end.failureReason);
      String file = "results/var_summary.csv.gz";
      String consumer =
          client.submitJob(
              TestJobs.job("reads-var-summary")
                  .stageIn("in/var_summary.csv.gz", "gantry-job:" + id + "/" + file)
                  .shell("gzip -t in/var_summary.csv.gz", 60)
                  .document());
      JobStatusInfo read = TestJobs.awaitFinal(client, consumer, Duration.ofMinutes(2));
      assertEquals(JobStateName.SUCCEEDED, read.state, name + ": " + read.failureReason);
      assertArrayEquals(
          Files.readAllBytes(server.jobDirectory(id).resolve(file)),
          Files.readAllBytes(server.jobDirectory(consumer).resolve("in/var_summary.csv.gz")),
          name);
      server
          .close(); // the demo database is a file of the server's, which H2 opens in one process at
      // a time
      return SampleVarRun.results(dataDir, id);
    }
  }
}
