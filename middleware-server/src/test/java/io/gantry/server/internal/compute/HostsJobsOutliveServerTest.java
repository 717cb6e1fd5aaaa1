package io.gantry.server.internal.compute;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.RiskDatabase;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mpirun-hosts jobs outlive the server as local ones do (JobsOutliveServerTest): mpirun runs under
 * gantry-stepd (jobs.supervisor) on the server's host and starts its daemons and ranks over ssh on
 * two sshd hosts, each a network namespace of its own. A SIGKILL (crash) or a SIGTERM (clean stop)
 * of the server leaves mpirun, the daemons and the ranks running; the next server on the same data
 * directory follows the job to its end, records SUCCEEDED once and stages the result out once, and
 * afterwards no process of the job is left on the server's host or on either host. The same holds
 * when the job ends otherwise: killed through a restarted server, stopped by its supervisor at the
 * wall time while no server runs, or with its supervisor killed by hand (mpirun then gets SIGTERM
 * from the kernel, PR_SET_PDEATHSIG, and stops its daemons and ranks on both hosts).
 */
class HostsJobsOutliveServerTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path STEPD = REPOSITORY.resolve("node-programs/build/gantry-stepd");
  private static final Duration LIMIT = Duration.ofSeconds(90);
  private static final int RANKS = 2;

  /**
   * Each rank: records the network namespace it runs in, says it started, waits for the test's
   * release file, then writes its own output; rank 0 also writes result.csv (the job's id and the
   * number of staged positions) for the SQL stage-out. The working directory is the job directory,
   * which every host sees at the same path.
   */
  private static final String RANK_SCRIPT =
      "r=$OMPI_COMM_WORLD_RANK; readlink /proc/$$/ns/net > net-$r.txt; echo started > started-$r;"
          + " while [ ! -e release ]; do sleep 0.1; done;"
          + " n=$(($(wc -l < positions.csv) - 1));"
          + " echo \"rank $r of $OMPI_COMM_WORLD_SIZE valued $n positions\" > rank-$r.out;"
          + " if [ \"$r\" = 0 ]; then"
          + " printf 'job_id,value_at_risk\\n%s,%s\\n' \"$GANTRY_JOB_ID\" \"$n\" > result.csv; fi;"
          + " echo \"rank $r released\"";

  @TempDir static Path work;
  private static NamespaceCluster cluster;
  private static RiskDatabase risk;
  private static Path mpirunOnLogin;

  @BeforeAll
  static void startHosts() throws Exception {
    assertTrue(Files.isExecutable(STEPD), "build the node programs first: " + STEPD);
    risk = RiskDatabase.postgres(EmbeddedPostgresServer.shared());
    // one slot per host: the two ranks run one on each host
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(1).sshd().start();
    // mpirun on the cluster's login host, where the hosts' addresses are reachable; the server's
    // ssh settings reach it through its environment, as in SameJobOnEveryBackendTest
    mpirunOnLogin = ClusterBackendSettings.mpirunOnLogin(cluster, work);
  }

  @AfterAll
  static void stopHosts() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aJobAcrossHostsSurvivesSigkillOfTheServerAndSucceedsOnceWithItsResultStagedOutOnce(
      @TempDir Path dir) throws Exception {
    survivesStop(dir, true);
  }

  @Test
  void aCleanStopLeavesTheJobAcrossHostsRunningAndTheNextServerFinishesIt(@TempDir Path dir)
      throws Exception {
    survivesStop(dir, false);
  }

  private void survivesStop(Path dir, boolean crash) throws Exception {
    GantryTestServerBuilder builder = server(dir);
    String id;
    try (GantryTestServer first =
        builder.name(crash ? "hosts-first-killed" : "hosts-first").start()) {
      JobManagement client = JobManagementClients.of(first);
      id =
          client.submitJob(
              TestJobs.job("outlives-" + (crash ? "crash" : "stop"))
                  .sqlStageIn(
                      RiskDatabase.NAME,
                      1,
                      "SELECT position_id, quantity FROM position ORDER BY position_id",
                      "positions.csv")
                  .mpirun(RANKS, 300, "/bin/sh", "-c", RANK_SCRIPT)
                  .sqlStageOut(
                      RiskDatabase.NAME,
                      "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
                      "result.csv")
                  .document());
      TestJobs.await(client, id, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
      for (int r = 0; r < RANKS; r++) {
        Path started = first.jobDirectory(id).resolve("started-" + r);
        Await.until("rank " + started + " to start", LIMIT, () -> Files.exists(started));
      }
      assertTrue(
          first.log().contains("job " + id + ": started under gantry-stepd"),
          "mpirun runs under the job supervisor: " + first.log());
      if (crash) {
        first.killHard();
      }
    } // close(): SIGTERM, the operator's stop
    Path jobDir = builder.dataDir().resolve("jobs").resolve(id);
    assertEquals(1, supervisorsOf(id).size(), "the job's supervisor outlived the server");
    assertFalse(Files.exists(jobDir.resolve("rank-0.out")), "the ranks still wait");
    for (NamespaceCluster.Node node : cluster.nodes()) {
      assertFalse(
          cluster.jobProcessesIn(node.namespace()).isEmpty(),
          "the job's daemon and rank still run on " + node.name());
    }

    try (GantryTestServer second =
        builder.name(crash ? "hosts-second-killed" : "hosts-second").start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals(JobStateName.RUNNING, client.getJobStatus(id).state, "still running");
      assertTrue(second.log().contains("job " + id + ": following its"), second.log());
      Files.writeString(jobDir.resolve("release"), "go");
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, () -> end.failureReason);
      assertEquals(0, end.exitCode);

      List<String> nodeNetworks = new ArrayList<>();
      for (NamespaceCluster.Node node : cluster.nodes()) {
        nodeNetworks.add(namespaceId(node.namespace()));
      }
      List<String> rankNetworks = new ArrayList<>();
      String stdout = Files.readString(jobDir.resolve("stdout.txt"));
      for (int r = 0; r < RANKS; r++) {
        assertEquals(
            "rank " + r + " of " + RANKS + " valued " + RiskDatabase.POSITIONS + " positions\n",
            Files.readString(jobDir.resolve("rank-" + r + ".out")));
        assertTrue(
            stdout.contains("rank " + r + " released"),
            "output written after the restart reaches the job's file: " + stdout);
        rankNetworks.add(Files.readString(jobDir.resolve("net-" + r + ".txt")).strip());
      }
      assertTrue(
          rankNetworks.containsAll(nodeNetworks) && nodeNetworks.containsAll(rankNetworks),
          "one rank on each host: ranks ran in "
              + rankNetworks
              + ", the hosts are "
              + nodeNetworks);

      List<AuditEntry> trail = client.getJobAudit(id).entries;
      assertEquals(1, entered(trail, JobStateName.RUNNING), "launched once: " + describe(trail));
      assertEquals(1, entered(trail, JobStateName.STAGING_OUT), "staged out once");
      assertEquals(1, entered(trail, JobStateName.SUCCEEDED), "succeeded once");
      assertEquals(1, client.getJobResults(id).stagedOut.size());
      Path status = builder.dataDir().resolve("supervisor").resolve(id + ".status");
      Await.until(
          "the status file to be deleted once the job is final",
          LIMIT,
          () -> !Files.exists(status));
    }
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"),
        "the result staged out exactly once");
    assertEquals(
        RiskDatabase.POSITIONS,
        risk.count("SELECT MAX(value_at_risk) FROM job_result WHERE job_id = '" + id + "'"));
    Await.value(
        "no process of job " + id + " to be left on the server's host or either host",
        LIMIT,
        () -> leftovers(id),
        List::isEmpty);
  }

  @Test
  void aJobAcrossHostsIsKilledThroughTheServerThatFollowsItAfterARestart(@TempDir Path dir)
      throws Exception {
    GantryTestServerBuilder builder = server(dir);
    String id;
    try (GantryTestServer first = builder.name("hosts-kill-first").start()) {
      id = submitAndAwaitRanks(first, "kill-later", 300);
      first.killHard();
    }
    try (GantryTestServer second = builder.name("hosts-kill-second").start()) {
      JobManagement client = JobManagementClients.of(second);
      client.killJob(id);
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.KILLED, end.state, () -> end.failureReason);
    }
    assertEquals(0, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"));
    Await.value(
        "no process of job " + id + " to be left on the server's host or either host",
        LIMIT,
        () -> leftovers(id),
        List::isEmpty);
  }

  @Test
  void theSupervisorEnforcesTheWallTimeOfAJobAcrossHostsWhileNoServerRuns(@TempDir Path dir)
      throws Exception {
    GantryTestServerBuilder builder = server(dir);
    String id;
    try (GantryTestServer first = builder.name("hosts-wall-first").start()) {
      // long enough for both ranks to start over ssh first, on a loaded machine too
      id = submitAndAwaitRanks(first, "too-long", (int) Math.ceil(15 * Await.scale()));
      first.killHard();
    }
    Path status = builder.dataDir().resolve("supervisor").resolve(id + ".status");
    Await.until(
        "the supervisor to record the job's end with no server running",
        LIMIT,
        () -> Files.exists(status));
    Await.value(
        "no process of job " + id + " to be left on the server's host or either host",
        LIMIT,
        () -> leftovers(id),
        List::isEmpty);
    try (GantryTestServer second = builder.name("hosts-wall-second").start()) {
      JobStatusInfo end = awaitFinal(JobManagementClients.of(second), id, LIMIT);
      assertEquals(JobStateName.FAILED, end.state);
      assertTrue(end.failureReason.contains("wall-time limit exceeded"), end.failureReason);
    }
  }

  @Test
  void aJobAcrossHostsEndsWithItsSupervisor(@TempDir Path dir) throws Exception {
    try (GantryTestServer server = server(dir).name("hosts-supervisor-killed").start()) {
      String id = submitAndAwaitRanks(server, "orphan", 300);
      List<ProcessHandle> supervisors = supervisorsOf(id);
      assertEquals(1, supervisors.size());
      supervisors.get(0).destroyForcibly();
      JobStatusInfo end = awaitFinal(JobManagementClients.of(server), id, LIMIT);
      assertEquals(JobStateName.FAILED, end.state);
      assertTrue(end.failureReason.contains("without recording"), end.failureReason);
      Await.value(
          "no process of job " + id + " to be left on the server's host or either host",
          LIMIT,
          () -> leftovers(id),
          List::isEmpty);
    }
  }

  /** Submits a job whose ranks wait for a release file; returns once both ranks run. */
  private static String submitAndAwaitRanks(GantryTestServer server, String name, int wallTime)
      throws Exception {
    JobManagement client = JobManagementClients.of(server);
    String id =
        client.submitJob(
            TestJobs.job(name)
                .sqlStageIn(
                    RiskDatabase.NAME,
                    1,
                    "SELECT position_id, quantity FROM position ORDER BY position_id",
                    "positions.csv")
                .mpirun(RANKS, wallTime, "/bin/sh", "-c", RANK_SCRIPT)
                .sqlStageOut(
                    RiskDatabase.NAME,
                    "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
                    "result.csv")
                .document());
    TestJobs.await(client, id, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    for (int r = 0; r < RANKS; r++) {
      Path started = server.jobDirectory(id).resolve("started-" + r);
      Await.until("rank " + started + " to start", LIMIT, () -> Files.exists(started));
    }
    return id;
  }

  private GantryTestServerBuilder server(Path dir) {
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("jobs.supervisor", STEPD.toString());
    settings.putAll(ClusterBackendSettings.mpirunHosts(cluster, mpirunOnLogin));
    return GantryTestServer.builder(dir).dataDir(dir.resolve("server")).settings(settings);
  }

  /** The job's gantry-stepd processes on this (the server's) host. */
  private static List<ProcessHandle> supervisorsOf(String id) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .map(c -> c.startsWith(STEPD + " --job " + id + " "))
                    .orElse(false))
        .toList();
  }

  /**
   * What still runs of the job: its supervisor here, anything but sshd on the login host or a node.
   */
  private static List<String> leftovers(String id) {
    List<String> left = new ArrayList<>();
    supervisorsOf(id).forEach(p -> left.add("here: " + p.pid() + " gantry-stepd"));
    for (String namespace : cluster.namespaces()) {
      cluster.jobProcessesIn(namespace).forEach(p -> left.add(namespace + ": " + p));
    }
    return left;
  }

  /** The network namespace a name in /run/netns stands for, as /proc/PID/ns/net names it. */
  private static String namespaceId(String namespace) throws IOException {
    Object inode = Files.getAttribute(Path.of("/run/netns", namespace), "unix:ino");
    return "net:[" + inode + "]";
  }

  private static long entered(List<AuditEntry> trail, JobStateName state) {
    return trail.stream().filter(e -> e.toState == state).count();
  }

  private static String describe(List<AuditEntry> trail) {
    StringBuilder text = new StringBuilder();
    trail.forEach(
        e ->
            text.append(e.fromState)
                .append("->")
                .append(e.toState)
                .append(' ')
                .append(e.text)
                .append("; "));
    return text.toString();
  }
}
