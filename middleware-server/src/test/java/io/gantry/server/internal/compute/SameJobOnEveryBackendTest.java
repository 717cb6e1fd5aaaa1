package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.Await;
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
   * gx:Stream file into a program on another host (docs/workflows.md, "Backends"): the rank reads
   * line 10,000 of the producer's file while the producer still writes it, from a network namespace
   * not the server's, and ends with the sum of the whole file, the same bytes as the producer's; a
   * producer that fails while it is read fails the running consumer, naming it.
   */
  private static void streamsIntoAProgramOnAnotherHost(
      GantryTestServer server, JobManagement client, String name) throws Exception {
    Duration limit = Duration.ofMinutes(2);
    String producer = client.submitJob(StreamingJobs.producer().document());
    String follower = client.submitJob(StreamingJobs.follower(producer).document());
    Path directory = server.jobDirectory(follower);
    Await.until(
        name + ": the follower's half-seen",
        limit,
        () -> Files.exists(directory.resolve("half-seen")));
    assertEquals(
        JobStateName.RUNNING, client.getJobStatus(producer).state, name + ": still written");
    String here = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
    assertNotEquals(
        here, Files.readString(directory.resolve("net.txt")).strip(), name + ": on another host");
    Files.createFile(server.jobDirectory(producer).resolve("release"));
    JobStatusInfo end = TestJobs.awaitFinal(client, follower, limit);
    assertEquals(JobStateName.SUCCEEDED, end.state, name + ": " + end.failureReason);
    assertEquals(
        "400000 " + (400_000L * 400_001L / 2) % 1_000_003L + "\n",
        Files.readString(directory.resolve("stdout.txt")),
        name);
    Path made = server.jobDirectory(producer).resolve("stdout.txt");
    assertEquals(-1L, Files.mismatch(made, directory.resolve("in.csv.gz")), name);

    String failing = client.submitJob(StreamingJobs.failingProducer().document());
    String cut = client.submitJob(StreamingJobs.follower(failing).document());
    Path cutDirectory = server.jobDirectory(cut);
    Await.until(
        name + ": the second follower's half-seen",
        limit,
        () -> Files.exists(cutDirectory.resolve("half-seen")));
    Files.createFile(server.jobDirectory(failing).resolve("release"));
    JobStatusInfo failed = TestJobs.awaitFinal(client, cut, limit);
    assertEquals(JobStateName.FAILED, failed.state, name);
    assertTrue(
        failed.failureReason.contains(
            "job "
                + failing
                + " ended FAILED while this job read its file stdout.txt as it was written"),
        name + ": " + failed.failureReason);
    assertTrue(failed.started != null, name + ": its program ran");
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
      if (!name.equals("local")) { // local's streams: JobDependenciesOverHttpTest
        streamsIntoAProgramOnAnotherHost(server, client, name);
      }
      server
          .close(); // the demo database is a file of the server's, which H2 opens in one process at
      // a time
      return SampleVarRun.results(dataDir, id);
    }
  }
}
