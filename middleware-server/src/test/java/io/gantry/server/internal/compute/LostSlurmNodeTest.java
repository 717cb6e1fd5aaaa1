package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compute node of a Slurm cluster lost while a job runs on it, as {@link LostHostTest} loses an
 * {@code mpirun-hosts} host: its link taken down and its job processes killed ({@link
 * NamespaceCluster#loseNode}), its slurmd left running but unreachable. The cluster's {@code
 * SlurmdTimeout} is short ({@link #SLURMD_TIMEOUT}), so slurmctld marks the node DOWN within
 * seconds; the job must then fail naming the node (Slurm's NODE_FAIL), once, long before its wall
 * time (docs/reliability.md, "Lost nodes").
 */
class LostSlurmNodeTest {
  private static final Duration SLURMD_TIMEOUT = Duration.ofSeconds(6);
  private static final Duration LIMIT = Duration.ofSeconds(90);
  private static final int WALL_TIME = 600;

  @TempDir static Path work;
  private static NamespaceCluster cluster;
  private static GantryTestServer server;

  @BeforeAll
  static void start() throws Exception {
    cluster =
        NamespaceCluster.builder()
            .nodes(2)
            .cpusPerNode(1)
            .slurmdTimeout(SLURMD_TIMEOUT)
            .slurm()
            .start();
    // Slurm starts the job under its owner's OS account: it must pass through to the job folder.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
    server = GantryTestServer.builder(work).settings(ClusterBackendSettings.slurm(cluster)).start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aJobOnALostNodeFailsNamingTheNodeBeforeItsWallTimeAndRunsOnce() throws Exception {
    JobManagement client = JobManagementClients.of(server);
    String id =
        client.submitJob(
            TestJobs.job("lost-slurm-node")
                .shell(": > \"started.$(hostname).$$\"; exec sleep " + WALL_TIME, WALL_TIME)
                .document());
    Path dir = server.jobDirectory(id);
    Await.until("the job to start on a node", LIMIT, () -> !started(dir).isEmpty());
    String name = started(dir).get(0).split("\\.")[1];
    NamespaceCluster.Node lost =
        cluster.nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    long lostAt = System.nanoTime();
    cluster.loseNode(lost);
    try {
      JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
      Duration took = Duration.ofNanos(System.nanoTime() - lostAt);
      System.out.println(
          "lost node: the Slurm job ended "
              + took.toMillis()
              + " ms after the loss: "
              + end.failureReason);
      assertEquals(JobStateName.FAILED, end.state, end.failureReason);
      assertTrue(
          end.failureReason.contains("NODE_FAIL") && end.failureReason.contains(lost.name()),
          "the reason names Slurm's NODE_FAIL and the node "
              + lost.name()
              + ": "
              + end.failureReason);
      assertEquals(1, started(dir).size(), "the program ran once, never requeued: " + started(dir));
    } catch (AssertionError e) {
      System.out.println(whatSlurmSays());
      throw e;
    } finally {
      cluster.reconnect(lost);
    }
  }

  /** On failure: Slurm's view of the nodes and jobs, and the end of slurmctld's log. */
  private static String whatSlurmSays() throws Exception {
    Path log = cluster.directory().resolve("log/slurmctld.log");
    List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
    return cluster.onLogin("scontrol", "show", "node").stdout()
        + cluster.onLogin("scontrol", "show", "job").stdout()
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  private static List<String> started(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(f -> f.startsWith("started."))
          .toList();
    }
  }
}
