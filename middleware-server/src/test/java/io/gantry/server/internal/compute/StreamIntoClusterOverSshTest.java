package io.gantry.server.internal.compute;

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
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gx:Stream file into a program on a cluster reached over SSH ({@code compute.ssh-host};
 * docs/workflows.md, "Streaming between stages", "Backends"): the consumer starts beside its
 * producer and follows the file the server appends to in its job directory on the cluster over
 * SFTP, as {@code SameJobOnEveryBackendTest} shows for {@code mpirun-hosts} and {@code slurm}. The
 * login host of a namespace cluster runs OpenSSH's sshd and slurmctld, a node runs slurmd; the
 * hosts share this machine's file system, so the test looks at compute.root directly.
 */
class StreamIntoClusterOverSshTest {
  private static NamespaceCluster cluster;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() {
    assertTrue(
        Files.isExecutable(StreamingJobs.GIO_CAT),
        "build the node programs first: " + StreamingJobs.GIO_CAT);
    cluster = NamespaceCluster.builder().nodes(1).cpusPerNode(2).slurm().sshd().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * The rank reads line 10,000 of the producer's file on the cluster while the producer still
   * writes it, and ends with the sum of the whole file; its input is byte for byte the producer's
   * file, and nothing of either job is written under the server's own staging root. A producer that
   * fails while it is read fails the running consumer, naming it.
   */
  @Test
  void aProgramOnTheClusterFollowsTheFileTheServerAppendsOverSftpAndFailsWithItsProducer()
      throws Exception {
    Path root = work.resolve("cluster-root");
    Map<String, String> settings =
        new HashMap<>(ClusterBackendSettings.slurmOverSsh(cluster, root));
    settings.put("jobs.allowed-executable-roots", StreamingJobs.GIO_CAT.getParent().toString());
    try (GantryTestServer server =
        GantryTestServer.builder(work.resolve("server"))
            .dataDir(work.resolve("data"))
            .settings(settings)
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      Duration limit = Duration.ofMinutes(3);
      String producer = client.submitJob(StreamingJobs.producer().document());
      String follower = client.submitJob(StreamingJobs.follower(producer).document());
      Path directory = root.resolve(follower);
      Await.until(
          "the follower's half-seen", limit, () -> Files.exists(directory.resolve("half-seen")));
      assertEquals(JobStateName.RUNNING, client.getJobStatus(producer).state, "still written");
      String here = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
      assertNotEquals(
          here, Files.readString(directory.resolve("net.txt")).strip(), "on the cluster's node");
      Files.createFile(root.resolve(producer).resolve("release"));
      JobStatusInfo end = TestJobs.awaitFinal(client, follower, limit);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
      assertEquals(
          "400000 " + (400_000L * 400_001L / 2) % 1_000_003L + "\n",
          Files.readString(directory.resolve("stdout.txt")));
      Path made = root.resolve(producer).resolve("stdout.txt");
      assertEquals(-1L, Files.mismatch(made, directory.resolve("in.csv.gz")), "the same bytes");
      assertFalse(Files.exists(server.jobDirectory(follower)), "nothing on the server's host");
      assertNoSpillLeft(server);

      String failing = client.submitJob(StreamingJobs.failingProducer().document());
      String cut = client.submitJob(StreamingJobs.follower(failing).document());
      Path cutDirectory = root.resolve(cut);
      Await.until(
          "the second follower's half-seen",
          limit,
          () -> Files.exists(cutDirectory.resolve("half-seen")));
      Files.createFile(root.resolve(failing).resolve("release"));
      JobStatusInfo failed = TestJobs.awaitFinal(client, cut, limit);
      assertEquals(JobStateName.FAILED, failed.state);
      assertTrue(
          failed.failureReason.contains(
              "job "
                  + failing
                  + " ended FAILED while this job read its file stdout.txt as it was written"),
          failed.failureReason);
      assertTrue(failed.started != null, "its program ran");
      assertNoSpillLeft(server);
    }
  }

  /** The spill copies, on the server's host, are removed once each stream ended. */
  private static void assertNoSpillLeft(GantryTestServer server) throws Exception {
    Path spills = server.jobDirectory("x").resolveSibling(".gantry-streams");
    Await.until(
        "the spill copies removed",
        Duration.ofMinutes(1),
        () -> {
          if (!Files.exists(spills)) {
            return true;
          }
          try (Stream<Path> s = Files.walk(spills)) {
            return s.noneMatch(Files::isRegularFile);
          }
        });
  }
}
