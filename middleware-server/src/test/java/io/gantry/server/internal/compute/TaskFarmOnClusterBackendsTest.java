package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.Await;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.CommandResult;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task farm (a GFD.149 sweep of 60 tasks, one exiting 3, one killed by SIGSEGV) run by a real
 * gantry-server on the two cluster backends of a two-node cluster in network namespaces: {@code
 * mpirun-hosts} (Open MPI over OpenSSH to both nodes) and {@code slurm} (slurmctld and two slurmd).
 * The server's host is on the cluster's network ({@link NamespaceCluster.Builder#serverLink()}) and
 * the farm's dispatcher listens there ({@code farm.dispatcher-host}), as on a real cluster.
 *
 * <p>The first four tasks each wait until all four have started, so that four launchers (two per
 * node, the nodes' slots) hold one each at the same time: both nodes run tasks, by construction.
 * While they wait the test looks at every process on the machine: the job's secret is in the
 * environment of mpirun and in no command line, task environment, server log or daemon log.
 *
 * <p>One server per backend serves both of its tests (a farm, then a farm with a launcher killed):
 * each farm is its own job with its own secret.
 */
class TaskFarmOnClusterBackendsTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path BUILD = REPOSITORY.resolve("node-programs/build");
  private static final Path LAUNCHER = BUILD.resolve("gantry-launcher");
  private static final Duration LIMIT = Duration.ofMinutes(2);
  private static final int TASKS = 60;
  private static final int LAUNCHERS = 4;

  /**
   * Task N ($1): the first four write their environment, mark their start and wait (at most 60 s)
   * for every one of them to have started and for the test's {@code go}; 7 exits 3; 13 dies of
   * SIGSEGV; every other task prints "task N".
   */
  private static final String TASK =
      "if [ \"$1\" -le "
          + LAUNCHERS
          + " ]; then env > \"env.$1\"; : > \"started.$1\"; i=0;"
          + " while [ \"$(ls started.* | wc -l)\" -lt "
          + LAUNCHERS
          + " ] || [ ! -e go ]; do"
          + " i=$((i + 1)); [ $i -gt 600 ] && break; sleep 0.1; done; fi;"
          + " case \"$1\" in 7) echo bad input; exit 3;; 13) kill -SEGV $$;; esac; echo \"task $1\"";

  private static NamespaceCluster cluster;

  /** The server of each backend, by its name ("mpirun-hosts", "slurm"), started at first use. */
  private static final Map<String, GantryTestServer> servers = new HashMap<>();

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    // Slurm runs the launchers under the job's OS account outside a sandbox: it must reach the
    // job directory.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
    assertTrue(
        Files.isExecutable(LAUNCHER), "build the node programs first (scripts/build): " + LAUNCHER);
    cluster =
        NamespaceCluster.builder().nodes(2).cpusPerNode(2).slurm().sshd().serverLink().start();
  }

  @AfterAll
  static void stopServersAndCluster() {
    servers.values().forEach(GantryTestServer::close);
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aFarmRunsAcrossBothHostsWithMpirunHosts() throws Exception {
    runFarm("mpirun-hosts", mpirunHostsServer());
  }

  @Test
  void aLauncherKilledOnANodeHasItsTaskRunAgainWithMpirunHosts() throws Exception {
    killALauncher("mpirun-hosts-kill", mpirunHostsServer());
  }

  @Test
  void aLauncherKilledOnANodeHasItsTaskRunAgainInSlurm() throws Exception {
    killALauncher("slurm-kill", slurmServer());
  }

  private static GantryTestServer mpirunHostsServer() throws Exception {
    if (!servers.containsKey("mpirun-hosts")) {
      servers.put(
          "mpirun-hosts",
          server(
              "mpirun-hosts",
              ClusterBackendSettings.mpirunHosts(
                  cluster, ClusterBackendSettings.mpirunOnLogin(cluster, work))));
    }
    return servers.get("mpirun-hosts");
  }

  private static GantryTestServer slurmServer() throws Exception {
    if (!servers.containsKey("slurm")) {
      servers.put("slurm", server("slurm", ClusterBackendSettings.slurm(cluster)));
    }
    return servers.get("slurm");
  }

  @Test
  void aFarmRunsAcrossBothNodesInSlurmAndItsSlurmJobEndsWithIt() throws Exception {
    String id = runFarm("slurm", slurmServer());
    CommandResult queue = cluster.onLogin("squeue", "--noheader");
    assertTrue(queue.succeeded(), queue.stderr());
    assertEquals("", queue.stdout().strip(), "nothing left in Slurm's queue");
    CommandResult jobs = cluster.onLogin("scontrol", "show", "job", "-o");
    List<String> farmJobs =
        jobs.stdout().lines().filter(l -> l.contains(" JobName=gantry-" + id + " ")).toList();
    assertEquals(1, farmJobs.size(), jobs.stdout());
    assertTrue(
        farmJobs.get(0).contains(" JobState=COMPLETED ")
            && farmJobs.get(0).contains(" ExitCode=0:0 "),
        "the launchers ended by themselves, told DONE: " + farmJobs.get(0));
  }

  /**
   * 40 tasks of 0.2 s on four launchers; task 1's first attempt sleeps until the test kills its
   * launcher with -9 on its node: the task runs again (attempt 2) and the farm completes.
   */
  private void killALauncher(String name, GantryTestServer server) throws Exception {
    String tag = "61." + System.nanoTime() % 1_000_000;
    String task =
        "if [ \"$1\" = 1 ]; then if [ -e first-attempt ]; then echo again; exit 0; fi;"
            + " : > first-attempt; exec sleep "
            + tag
            + "; fi; sleep 0.2; echo \"task $1\"";
    String sweep =
        "<sweep:Sweep>"
            + TestJobs.sweepAssignment(
                TestJobs.posixArgument(4), "<sweepfunc:LoopInteger start=\"1\" end=\"40\"/>")
            + "</sweep:Sweep>";
    String xml =
        TestJobs.job("farm-" + name)
            .posix(300, "/bin/sh", "-c", task, "sh", "N")
            .farmXml(
                "<gx:TaskFarm><gx:Launchers>" + LAUNCHERS + "</gx:Launchers></gx:TaskFarm>", sweep);
    JobManagement client = JobManagementClients.of(server);
    String id = client.submitJob(TestJobs.documentOf(xml));
    long sleeper =
        Await.value(
            "task 1 to sleep",
            LIMIT,
            () -> {
              for (long pid : allPids()) {
                if (commandLine(pid).equals("sleep " + tag)) {
                  return pid;
                }
              }
              return 0L;
            },
            pid -> pid > 0);
    long launcher = parentOf(sleeper);
    assertTrue(commandLine(launcher).startsWith(LAUNCHER.toString()), commandLine(launcher));
    new ProcessBuilder("kill", "-9", Long.toString(launcher)).start().waitFor();

    JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, name + ": " + end.failureReason);
    List<String> rows = results(server.jobDirectory(id));
    assertEquals(41, rows.size(), "the header and one row per task: " + rows);
    assertTrue(rows.get(1).startsWith("1,1,succeeded,0,,2,"), "attempt 2: " + rows.get(1));
    assertTrue(rows.get(1).contains("again"), rows.get(1));
    for (int n = 2; n <= 40; n++) {
      assertTrue(rows.get(n).startsWith(n + "," + n + ",succeeded,0,,1,"), rows.get(n));
    }
    Await.until("every launcher to have exited", LIMIT, () -> pidsRunning(LAUNCHER).isEmpty());
    Await.until("no orted left on the nodes", LIMIT, () -> ortedsOnNodes().isEmpty());
  }

  private static GantryTestServer server(String name, Map<String, String> backend)
      throws Exception {
    Map<String, String> settings =
        new HashMap<>(
            Map.of(
                "jobs.allowed-executable-roots",
                BUILD.toString(),
                "farm.dispatcher-host",
                cluster.serverAddress(),
                "slots.total",
                Integer.toString(LAUNCHERS)));
    settings.putAll(backend);
    return GantryTestServer.builder(work.resolve(name + "-server"))
        .dataDir(work.resolve(name))
        .settings(settings)
        .start();
  }

  /** Runs the farm on {@code server} and checks it; its job id. */
  private String runFarm(String name, GantryTestServer server) throws Exception {
    String farm =
        "<gx:TaskFarm><gx:Launchers>"
            + LAUNCHERS
            + "</gx:Launchers><gx:OutputBytes>100</gx:OutputBytes></gx:TaskFarm>";
    String sweep =
        "<sweep:Sweep>"
            + TestJobs.sweepAssignment(
                TestJobs.posixArgument(4),
                "<sweepfunc:LoopInteger start=\"1\" end=\"" + TASKS + "\"/>")
            + "</sweep:Sweep>";
    String xml =
        TestJobs.job("farm-" + name)
            .posix(300, "/bin/sh", "-c", TASK, "sh", "N")
            .farmXml(farm, sweep);
    JobManagement client = JobManagementClients.of(server);
    String id = client.submitJob(TestJobs.documentOf(xml));
    Path dir = server.jobDirectory(id);
    Await.until(
        "the first " + LAUNCHERS + " tasks to run at once",
        LIMIT,
        () -> {
          for (int n = 1; n <= LAUNCHERS; n++) {
            if (!Files.exists(dir.resolve("started." + n))) {
              return false;
            }
          }
          return true;
        });
    String secret = secretOfRunningFarm();
    Files.writeString(dir.resolve("go"), "");

    JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, name + ": " + end.failureReason);
    String audit =
        String.join("\n", client.getJobAudit(id).entries.stream().map(e -> e.text).toList());
    assertTrue(
        audit.contains(TASKS + " tasks final, " + (TASKS - 2) + " succeeded, 2 failed"), audit);

    Set<String> hosts = new TreeSet<>();
    List<String> rows = results(dir);
    assertEquals(TASKS + 1, rows.size(), "the header and one row per task: " + rows);
    assertEquals(
        "task_id,sweep_1,state,exit_code,signal,attempts,launcher_host,started_at,duration_ms,output",
        rows.get(0));
    for (int n = 1; n <= TASKS; n++) {
      String[] c = rows.get(n).split(",", 10);
      assertEquals(List.of(Integer.toString(n), Integer.toString(n)), List.of(c[0], c[1]));
      String expected =
          switch (n) {
            case 7 -> "exited,3,,1";
            case 13 -> "signaled,,11,1";
            default -> "succeeded,0,,1";
          };
      assertEquals(expected, String.join(",", c[2], c[3], c[4], c[5]), rows.get(n));
      String output = n == 7 ? "bad input" : n == 13 ? "" : "task " + n;
      assertEquals(output, c[9].replace("\"", "").strip(), rows.get(n));
      hosts.add(c[6]);
    }
    Set<String> nodes = new TreeSet<>();
    cluster.nodes().forEach(node -> nodes.add(node.name()));
    assertEquals(nodes, hosts, "the launchers' hosts");

    Await.until("every launcher to have exited", LIMIT, () -> pidsRunning(LAUNCHER).isEmpty());
    Await.until("no orted left on the nodes", LIMIT, () -> ortedsOnNodes().isEmpty());
    assertSecretNowhere(secret, server, dir);
    return id;
  }

  /**
   * The farm's secret, read from the environment of mpirun, which forwards it to the launchers (its
   * children inherit it: the ssh agents to the hosts; in Slurm, srun and the orted it starts on the
   * other node, under the job's account); checks that no launcher or task holds it and no command
   * line on the machine shows it. Processes of this cluster's farms are told apart from other farms
   * on the machine by their dispatcher's address, which is on this cluster's network.
   */
  private static String secretOfRunningFarm() throws IOException {
    String secret = null;
    List<String> holders = new ArrayList<>();
    for (long pid : allPids()) {
      Optional<String> value = environmentValue(pid, "GANTRY_FARM_SECRET");
      boolean ours =
          environmentValue(pid, "GANTRY_FARM_DISPATCHER")
              .filter(a -> a.startsWith(cluster.serverAddress() + ":"))
              .isPresent();
      // a launcher wipes the value in place: its environ shows the name with no value
      if (value.filter(v -> !v.isEmpty()).isPresent() && ours) {
        secret = value.get();
        holders.add(pid + " " + commandLine(pid));
      }
    }
    assertTrue(secret != null && secret.length() >= 43, "a process holds the secret");
    for (String holder : holders) {
      assertTrue(
          holder.matches(
              "(?s)\\d+ (\\S*/)?(mpirun|ssh|srun|orted|bwrap|gantry-stepd|\\S*gantry-batch\\.sh) .*"),
          "only mpirun and what starts it (supervisor, batch script) or inherits its environment"
              + " (ssh agents; srun and orted in Slurm) hold the secret, not a launcher nor a task: "
              + holders);
    }
    for (long pid : allPids()) {
      assertFalse(commandLine(pid).contains(secret), "the secret in the arguments of " + pid);
    }
    return secret;
  }

  private static void assertSecretNowhere(String secret, GantryTestServer server, Path dir)
      throws IOException {
    assertFalse(server.log().contains(secret), "the secret in the server's log");
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(Files::isRegularFile).forEach(files::add);
    }
    try (Stream<Path> s = Files.walk(cluster.directory().resolve("log"))) {
      s.filter(Files::isRegularFile).forEach(files::add);
    }
    assertTrue(files.stream().anyMatch(f -> f.getFileName().toString().equals("env.1")));
    for (Path f : files) {
      String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      assertFalse(text.contains(secret), "the secret in " + f);
      assertFalse(
          f.getFileName().toString().startsWith("env.") && text.contains("GANTRY_FARM_SECRET"),
          "a task inherited the secret's variable: " + f);
    }
  }

  /** The result file's records (a quoted output spans lines: records split at CRLF). */
  private static List<String> results(Path dir) throws IOException {
    String text = Files.readString(dir.resolve("task-results.csv"), StandardCharsets.UTF_8);
    return List.of(text.split("\r\n"));
  }

  private static List<Long> pidsRunning(Path program) throws IOException {
    List<Long> found = new ArrayList<>();
    for (long pid : allPids()) {
      if (commandLine(pid).startsWith(program.toString())) {
        found.add(pid);
      }
    }
    return found;
  }

  /** Open MPI's daemons still running in the nodes' namespaces. */
  private static List<String> ortedsOnNodes() throws Exception {
    List<String> found = new ArrayList<>();
    for (NamespaceCluster.Node node : cluster.nodes()) {
      Process ps = new ProcessBuilder("ip", "netns", "pids", node.namespace()).start();
      String pids = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      ps.waitFor();
      for (String pid : pids.split("\\s+")) {
        if (!pid.isEmpty() && commandLine(Long.parseLong(pid)).startsWith("orted ")) {
          found.add(node.name() + ": " + pid);
        }
      }
    }
    return found;
  }

  private static long parentOf(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
  }

  private static List<Long> allPids() throws IOException {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs
          .map(p -> p.getFileName().toString())
          .filter(n -> n.chars().allMatch(Character::isDigit))
          .map(Long::parseLong)
          .toList();
    }
  }

  private static Optional<String> environmentValue(long pid, String name) {
    try {
      String environ =
          new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/environ")), StandardCharsets.UTF_8);
      for (String entry : environ.split("\0")) {
        if (entry.startsWith(name + "=")) {
          return Optional.of(entry.substring(name.length() + 1));
        }
      }
    } catch (IOException gone) {
      // ended meanwhile
    }
    return Optional.empty();
  }

  private static String commandLine(long pid) {
    try {
      return new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ')
          .strip();
    } catch (IOException gone) {
      return "";
    }
  }
}
