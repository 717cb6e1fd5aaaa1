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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compute host lost in the middle of a job on {@code mpirun-hosts}: two OpenSSH hosts in network
 * namespaces, one slot each, and one of them taken off the network with its job processes killed
 * ({@link NamespaceCluster#loseNode}), as a host that crashes or loses its link: no reset reaches
 * its peers, so only their own timeouts tell them. An MPI job with a rank on it fails naming the
 * host, long before its wall time; a task farm with a launcher on it runs the lost tasks again on
 * the host that is left and succeeds. One server and one cluster serve both tests; the host is put
 * back after each.
 *
 * <p>The lost launcher sends nothing more and no reset reaches the dispatcher: its connection is
 * ended when its heartbeats stop (5 missed, 10 s; docs/reliability.md, "Lost nodes"), whether or
 * not a frame to it was in flight. A Slurm node lost the same way: {@link LostSlurmNodeTest}.
 */
class LostHostTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path BUILD = REPOSITORY.resolve("node-programs/build");
  private static final Duration LIMIT = Duration.ofSeconds(90);
  private static final int WALL_TIME = 300;

  /** Each rank (or the first task on each launcher) marks its start, then waits to be lost. */
  private static final String WAIT_SCRIPT =
      "r=${OMPI_COMM_WORLD_RANK:-$1}; : > started-$r; while [ ! -e go ]; do sleep 0.1; done";

  @TempDir static Path work;
  private static NamespaceCluster cluster;
  private static GantryTestServer server;

  @BeforeAll
  static void start() throws Exception {
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(1).sshd().serverLink().start();
    Map<String, String> settings =
        new HashMap<>(
            Map.of(
                "jobs.allowed-executable-roots", BUILD.toString(),
                "farm.dispatcher-host", cluster.serverAddress(),
                "slots.total", "2"));
    settings.putAll(
        ClusterBackendSettings.mpirunHosts(
            cluster, ClusterBackendSettings.mpirunOnLogin(cluster, work)));
    server =
        GantryTestServer.builder(work.resolve("server"))
            .dataDir(work.resolve("data"))
            .settings(settings)
            .start();
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
  void anMpiJobWithARankOnALostHostFailsNamingTheHostBeforeItsWallTime() throws Exception {
    JobManagement client = JobManagementClients.of(server);
    String id =
        client.submitJob(
            TestJobs.job("lost-host-mpi")
                .mpirun(2, WALL_TIME, "/bin/sh", "-c", WAIT_SCRIPT)
                .document());
    Path dir = server.jobDirectory(id);
    awaitFiles(dir, "started-0", "started-1");
    NamespaceCluster.Node lost = cluster.nodes().get(1);
    long lostAt = System.nanoTime();
    cluster.loseNode(lost);
    try {
      JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
      Duration took = Duration.ofNanos(System.nanoTime() - lostAt);
      System.out.println("lost host: the MPI job ended " + took.toMillis() + " ms after the loss");
      assertEquals(JobStateName.FAILED, end.state, end.failureReason);
      assertTrue(
          end.failureReason.contains(lost.address()),
          "the reason names the lost host " + lost.address() + ": " + end.failureReason);
    } finally {
      cluster.reconnect(lost);
    }
  }

  @Test
  void aTaskFarmRunsTheTasksOfALostHostAgainOnTheHostLeft() throws Exception {
    String sweep =
        "<sweep:Sweep>"
            + TestJobs.sweepAssignment(
                TestJobs.posixArgument(4), "<sweepfunc:LoopInteger start=\"1\" end=\"10\"/>")
            + "</sweep:Sweep>";
    String task =
        "if [ \"$1\" -le 2 ]; then : > \"started.$1.$(hostname)\";"
            + " while [ ! -e go ]; do sleep 0.1; done; fi; echo \"task $1\"";
    String xml =
        TestJobs.job("lost-host-farm")
            .posix(WALL_TIME, "/bin/sh", "-c", task, "sh", "N")
            .farmXml("<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>", sweep);
    JobManagement client = JobManagementClients.of(server);
    String id = client.submitJob(TestJobs.documentOf(xml));
    Path dir = server.jobDirectory(id);
    NamespaceCluster.Node lost = cluster.nodes().get(1);
    Await.until(
        "tasks 1 and 2 to run, one on each host",
        LIMIT,
        () -> {
          if (!Files.isDirectory(dir)) {
            return false;
          }
          try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("started.")).count()
                == 2;
          }
        });
    String onLost = Files.exists(dir.resolve("started.1." + lost.name())) ? "1" : "2";
    long lostAt = System.nanoTime();
    cluster.loseNode(lost);
    try {
      Files.writeString(dir.resolve("go"), "");
      JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
      Duration took = Duration.ofNanos(System.nanoTime() - lostAt);
      System.out.println("lost host: the farm ended " + took.toMillis() + " ms after the loss");
      String text = Files.readString(dir.resolve("task-results.csv"), StandardCharsets.UTF_8);
      List<String> rows = List.of(text.split("\r\n"));
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason + "\n" + text);
      assertEquals(11, rows.size(), text);
      String again = rows.get(Integer.parseInt(onLost));
      assertTrue(again.startsWith(onLost + "," + onLost + ",succeeded,0,,2,"), again);
    } finally {
      cluster.reconnect(lost);
    }
  }

  private static void awaitFiles(Path dir, String... names) {
    for (String name : names) {
      Await.until(name + " in " + dir, LIMIT, () -> Files.exists(dir.resolve(name)));
    }
  }
}
