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
 *
 * <p>The five cases are one run of four servers (nine as tests of their own) on one data directory:
 * each case's checks are those it had as a test of its own. "No process of the job is left" looks
 * at every process on the hosts, so a case checks it only while no other job runs: the crash and
 * the kill through the next server share the first restart and are checked together once both
 * ended.
 */
class HostsJobsOutliveServerTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path STEPD = REPOSITORY.resolve("node-programs/build/gantry-stepd");

  /**
   * As a process's command line shows it: the JDK names the executable by its real path
   * (/proc/PID/exe), so a node-programs/build that is a link is resolved.
   */
  private static final Path STEPD_REAL = realPath(STEPD);

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

  /**
   * In order, on one data directory: a SIGKILL of the server with two jobs running (one released
   * and followed to success, one killed through the next server); a job whose supervisor is killed
   * by hand; a job whose wall time passes while no server runs (after a SIGKILL), whose failure the
   * next server records; a clean stop (SIGTERM) of that server with a job running, which the next
   * server follows to success.
   */
  @Test
  void jobsAcrossHostsOutliveTheServerAndEndOnceWhicheverWayTheyEnd() throws Exception {
    GantryTestServerBuilder builder = server(work.resolve("run"));
    String crashed;
    String killLater;
    String tooLong;
    try (GantryTestServer first = builder.name("hosts-first-killed").start()) {
      crashed = submit(first, "outlives-crash", 300);
      killLater = submit(first, "kill-later", 300);
      awaitRanks(first, crashed);
      awaitRanks(first, killLater);
      assertTrue(
          first.log().contains("job " + crashed + ": started under gantry-stepd"),
          "mpirun runs under the job supervisor: " + first.log());
      first.killHard();
    }
    assertOutlived(builder, crashed);

    try (GantryTestServer second = builder.name("hosts-second-killed").start()) {
      JobManagement client = JobManagementClients.of(second);
      client.killJob(killLater);
      finishReleased(second, builder, crashed);
      JobStatusInfo killed = awaitFinal(client, killLater, LIMIT);
      assertEquals(JobStateName.KILLED, killed.state, () -> killed.failureReason);
      assertNoProcessLeft(crashed, killLater);
      assertEquals(
          0, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + killLater + "'"));

      endsWithItsSupervisor(second);

      // the wall time: long enough for both ranks to start over ssh first, on a loaded machine too
      tooLong = submit(second, "too-long", (int) Math.ceil(15 * Await.scale()));
      awaitRanks(second, tooLong);
      second.killHard();
      wallTimeEnforcedWhileNoServerRuns(builder, tooLong);
    }

    String stopped;
    try (GantryTestServer third = builder.name("hosts-first").start()) {
      JobStatusInfo wallTime = awaitFinal(JobManagementClients.of(third), tooLong, LIMIT);
      assertEquals(JobStateName.FAILED, wallTime.state);
      assertTrue(
          wallTime.failureReason.contains("wall-time limit exceeded"), wallTime.failureReason);

      stopped = submit(third, "outlives-stop", 300);
      awaitRanks(third, stopped);
      assertTrue(
          third.log().contains("job " + stopped + ": started under gantry-stepd"),
          "mpirun runs under the job supervisor: " + third.log());
    } // close(): SIGTERM, the operator's stop
    assertOutlived(builder, stopped);
    try (GantryTestServer fourth = builder.name("hosts-second").start()) {
      finishReleased(fourth, builder, stopped);
    }
    assertNoProcessLeft(stopped);
  }

  /** The server is gone; the job's supervisor, daemons and ranks still run. */
  private static void assertOutlived(GantryTestServerBuilder builder, String id) {
    Path jobDir = builder.dataDir().resolve("jobs").resolve(id);
    assertEquals(1, supervisorsOf(id).size(), "the job's supervisor outlived the server");
    assertFalse(Files.exists(jobDir.resolve("rank-0.out")), "the ranks still wait");
    for (NamespaceCluster.Node node : cluster.nodes()) {
      assertFalse(
          cluster.jobProcessesIn(node.namespace()).isEmpty(),
          "the job's daemon and rank still run on " + node.name());
    }
  }

  /**
   * The server that followed {@code id} after a restart finds it still running, releases it, and
   * sees it succeed once with its ranks' output and its result staged out once.
   */
  private static void finishReleased(
      GantryTestServer second, GantryTestServerBuilder builder, String id) throws Exception {
    Path jobDir = builder.dataDir().resolve("jobs").resolve(id);
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
        "one rank on each host: ranks ran in " + rankNetworks + ", the hosts are " + nodeNetworks);

    List<AuditEntry> trail = client.getJobAudit(id).entries;
    assertEquals(1, entered(trail, JobStateName.RUNNING), "launched once: " + describe(trail));
    assertEquals(1, entered(trail, JobStateName.STAGING_OUT), "staged out once");
    assertEquals(1, entered(trail, JobStateName.SUCCEEDED), "succeeded once");
    assertEquals(1, client.getJobResults(id).stagedOut.size());
    Path status = builder.dataDir().resolve("supervisor").resolve(id + ".status");
    Await.until(
        "the status file to be deleted once the job is final", LIMIT, () -> !Files.exists(status));
    assertEquals(
        1,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + id + "'"),
        "the result staged out exactly once");
    assertEquals(
        RiskDatabase.POSITIONS,
        risk.count("SELECT MAX(value_at_risk) FROM job_result WHERE job_id = '" + id + "'"));
  }

  /** A job whose supervisor is killed by hand fails, and leaves nothing behind on any host. */
  private static void endsWithItsSupervisor(GantryTestServer server) throws Exception {
    String id = submit(server, "orphan", 300);
    awaitRanks(server, id);
    List<ProcessHandle> supervisors = supervisorsOf(id);
    assertEquals(1, supervisors.size());
    supervisors.get(0).destroyForcibly();
    JobStatusInfo end = awaitFinal(JobManagementClients.of(server), id, LIMIT);
    assertEquals(JobStateName.FAILED, end.state);
    assertTrue(end.failureReason.contains("without recording"), end.failureReason);
    assertNoProcessLeft(id);
  }

  /**
   * With no server running, the supervisor stops {@code id} at its wall time and records its end,
   * leaving nothing behind (the next server records the failure).
   */
  private static void wallTimeEnforcedWhileNoServerRuns(
      GantryTestServerBuilder builder, String id) {
    Path status = builder.dataDir().resolve("supervisor").resolve(id + ".status");
    Await.until(
        "the supervisor to record the job's end with no server running",
        LIMIT,
        () -> Files.exists(status));
    assertNoProcessLeft(id);
  }

  /** Waits until no process of the jobs {@code ids} (the only ones running) is left anywhere. */
  private static void assertNoProcessLeft(String... ids) {
    Await.value(
        "no process of job "
            + String.join(" or ", ids)
            + " to be left on the server's host or either host",
        LIMIT,
        () -> leftovers(List.of(ids)),
        List::isEmpty);
  }

  /** Submits a job whose ranks wait for a release file. */
  private static String submit(GantryTestServer server, String name, int wallTime)
      throws Exception {
    return JobManagementClients.of(server)
        .submitJob(
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
  }

  /** Returns once the job is RUNNING and both its ranks have started. */
  private static void awaitRanks(GantryTestServer server, String id) throws Exception {
    TestJobs.await(
        JobManagementClients.of(server),
        id,
        LIMIT,
        s -> s.state == JobStateName.RUNNING,
        "RUNNING");
    for (int r = 0; r < RANKS; r++) {
      Path started = server.jobDirectory(id).resolve("started-" + r);
      Await.until("rank " + started + " to start", LIMIT, () -> Files.exists(started));
    }
  }

  private static GantryTestServerBuilder server(Path dir) {
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("jobs.supervisor", STEPD.toString());
    settings.putAll(ClusterBackendSettings.mpirunHosts(cluster, mpirunOnLogin));
    // two jobs of two ranks at once after the first start (each mpirun places one rank per host)
    return GantryTestServer.builder(dir)
        .dataDir(dir.resolve("server"))
        .settings(settings)
        .slots(2 * RANKS);
  }

  private static Path realPath(Path file) {
    try {
      return file.toRealPath();
    } catch (IOException e) {
      return file; // not built: startHosts says so
    }
  }

  /** The job's gantry-stepd processes on this (the server's) host. */
  private static List<ProcessHandle> supervisorsOf(String id) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .map(c -> c.startsWith(STEPD_REAL + " --job " + id + " "))
                    .orElse(false))
        .toList();
  }

  /**
   * What still runs of the jobs: their supervisors here, anything but sshd on the login host or a
   * node.
   */
  private static List<String> leftovers(List<String> ids) {
    List<String> left = new ArrayList<>();
    for (String id : ids) {
      supervisorsOf(id).forEach(p -> left.add("here: " + p.pid() + " gantry-stepd"));
    }
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
