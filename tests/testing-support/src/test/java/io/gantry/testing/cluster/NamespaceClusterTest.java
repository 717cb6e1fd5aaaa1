package io.gantry.testing.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A two-node Slurm cluster with sshd on every host, shared by the tests of this class: what the
 * compute backends will stand on. The class's teardown checks that nothing is left behind.
 */
class NamespaceClusterTest {
  private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
  private static final Set<String> FINAL_STATES =
      Set.of(
          "COMPLETED",
          "FAILED",
          "CANCELLED",
          "TIMEOUT",
          "NODE_FAIL",
          "OUT_OF_MEMORY",
          "BOOT_FAIL",
          "DEADLINE",
          "PREEMPTED");

  private static NamespaceCluster cluster;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() {
    cluster = NamespaceCluster.builder().nodes(2).slurm().sshd().start();
  }

  @AfterAll
  static void teardownLeavesNothingBehind() {
    List<String> namespaces = cluster.namespaces();
    List<Long> pids = cluster.daemonPids();
    cluster.close();
    assertTrue(
        namespaces.stream().noneMatch(NamespaceCluster::namespaceExists),
        "namespaces left: " + namespaces);
    assertTrue(cluster.vethNames().stream().noneMatch(NamespaceCluster::interfaceExistsOnMachine));
    assertTrue(
        pids.stream()
            .noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)));
    assertFalse(Files.exists(cluster.directory()));
  }

  @Test
  void aBatchJobWithTwoTasksRunsOneTaskOnEachNode() throws IOException {
    Path dir = Files.createDirectories(work.resolve("two-tasks"));
    Path script = write(dir.resolve("job.sh"), "#!/bin/sh\nsrun hostname\n");
    String id = sbatch(dir, "--nodes=2", "--ntasks=2", "--ntasks-per-node=1", script.toString());

    assertEquals("COMPLETED 0:0", awaitEnd(id));
    List<String> hosts = Files.readAllLines(dir.resolve("out.txt")).stream().sorted().toList();
    assertEquals(List.of("n1", "n2"), hosts);
  }

  @Test
  void srunRunsAStepOnEveryNode() {
    CommandResult result =
        cluster
            .onLogin(
                "srun",
                "--nodes=2",
                "--ntasks=2",
                "sh",
                "-c",
                "echo \"$SLURMD_NODENAME $(hostname)\"")
            .orThrow();
    assertEquals(List.of("n1 n1", "n2 n2"), result.stdout().lines().sorted().toList());
  }

  @Test
  void scancelEndsARunningJobAndSlurmReportsItCancelled() throws IOException {
    Path dir = Files.createDirectories(work.resolve("cancel"));
    String id = sbatch(dir, "--wrap", "sleep 300");
    awaitState(id, "RUNNING");

    // The wrappers in clientBin() run on the login host from this machine, SLURM_CONF included.
    Commands.check(List.of(cluster.clientBin().resolve("scancel").toString(), id), JOB_TIMEOUT);

    // The exit code of a cancelled job is not fixed: 0:15 when the batch shell died of SIGTERM,
    // 143:0 when it exited on its own after the signal, 1:0 once on a fresh clone's run
    // beside the other tests (cause not established). The state is what tells.
    String end = awaitEnd(id);
    assertTrue(end.matches("CANCELLED \\d+:\\d+"), end);
    assertTrue(completionRecord(id).startsWith(id + "|CANCELLED|"), completionRecord(id));
  }

  @Test
  void aFailingJobsExitCodeIsKnownAfterItEnds() throws IOException {
    Path dir = Files.createDirectories(work.resolve("failing"));
    String id = sbatch(dir, "--wrap", "exit 3");

    assertEquals("FAILED 3:0", awaitEnd(id));
    assertEquals(id + "|FAILED|3:0", completionRecord(id));
    // In docker/ the server reads this log (sacct -c) as user gantry, not as Slurm's root.
    assertTrue(
        Files.getPosixFilePermissions(cluster.jobCompletionLog())
            .contains(PosixFilePermission.OTHERS_READ),
        () -> cluster.jobCompletionLog() + " is not readable by other users");
  }

  @Test
  void mcvarOnFourRanksOverBothSlurmNodesWritesTheSameBytesAsOnOneRank() throws IOException {
    Path dir = Files.createDirectories(work.resolve("mcvar-slurm"));
    Path inputs = generateInputs(dir);
    Path single = runMcvarLocally(dir, inputs);
    Path spread = Files.createDirectories(dir.resolve("out-4"));
    Path script =
        write(
            dir.resolve("job.sh"),
            "#!/bin/sh\nexec " + String.join(" ", mcvar(inputs, spread)) + "\n");

    String id = sbatch(dir, "--nodes=2", "--ntasks=4", "--ntasks-per-node=2", script.toString());

    assertEquals("COMPLETED 0:0", awaitEnd(id), () -> read(dir.resolve("out.txt")));
    assertTrue(
        cluster
            .onLogin("sacct", "-c", "-n", "-P", "-j", id, "-o", "nodelist")
            .stdout()
            .contains("n[1-2]"));
    assertSameFiles(single, spread);
  }

  @Test
  void mpirunStartsRanksOnBothSshHostsWithTheTestKey() throws IOException {
    CommandResult hostnames =
        cluster
            .onLogin(
                "mpirun",
                "--hostfile",
                cluster.hostfile().toString(),
                "--map-by",
                "node",
                "-np",
                "2",
                "hostname")
            .orThrow();
    assertEquals(List.of("n1", "n2"), hostnames.stdout().lines().sorted().toList());

    Path dir = Files.createDirectories(work.resolve("mcvar-ssh"));
    Path inputs = generateInputs(dir);
    Path single = runMcvarLocally(dir, inputs);
    Path spread = Files.createDirectories(dir.resolve("out-2"));
    List<String> command =
        new ArrayList<>(
            List.of(
                "mpirun",
                "--hostfile",
                cluster.hostfile().toString(),
                "--map-by",
                "node",
                "-np",
                "2",
                "--wdir",
                dir.toString()));
    command.addAll(mcvar(inputs, spread).subList(1, mcvar(inputs, spread).size()));
    cluster.onLogin(command, JOB_TIMEOUT).orThrow();
    assertSameFiles(single, spread);
  }

  @Test
  void aClientOutsideTheClusterRunsSlurmCommandsOnTheLoginHostOverSsh() {
    var endpoint = cluster.loginSshEndpoint();
    List<String> ssh =
        List.of(
            "ssh",
            "-F",
            cluster.sshConfig().toString(),
            "-p",
            Integer.toString(endpoint.getPort()),
            endpoint.getHostString());
    CommandResult host = Commands.check(concat(ssh, "hostname"), JOB_TIMEOUT);
    assertEquals("login", host.stdout().trim());

    // The session gets SLURM_CONF from sshd: nothing but the command travels.
    String id =
        Commands.check(
                concat(ssh, "sbatch --parsable --output=/dev/null --wrap 'exit 4'"), JOB_TIMEOUT)
            .stdout()
            .trim();
    assertEquals("FAILED 4:0", awaitEnd(id));
  }

  @Test
  void sftpToTheLoginHostWritesFilesTheNodesSee() throws IOException {
    var endpoint = cluster.loginSshEndpoint();
    Path dir = Files.createDirectories(work.resolve("sftp"));
    Path local = write(dir.resolve("local.csv"), "a,b\n1,2\n");
    Path batch =
        write(dir.resolve("batch"), "put " + local + " " + dir.resolve("remote.csv") + "\n");
    Commands.check(
        List.of(
            "sftp",
            "-F",
            cluster.sshConfig().toString(),
            "-P",
            Integer.toString(endpoint.getPort()),
            "-b",
            batch.toString(),
            endpoint.getHostString()),
        JOB_TIMEOUT);
    CommandResult onNode =
        cluster
            .onNode(
                cluster.nodes().get(1),
                List.of("cat", dir.resolve("remote.csv").toString()),
                JOB_TIMEOUT)
            .orThrow();
    assertEquals("a,b\n1,2\n", onNode.stdout());
  }

  private static List<String> concat(List<String> first, String last) {
    List<String> all = new ArrayList<>(first);
    all.add(last);
    return all;
  }

  // ---- helpers ----

  private static String sbatch(Path dir, String... arguments) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "sbatch",
                "--parsable",
                "--chdir",
                dir.toString(),
                "--output",
                dir.resolve("out.txt").toString()));
    command.addAll(List.of(arguments));
    return cluster.onLogin(command, JOB_TIMEOUT).orThrow().stdout().trim();
  }

  /** Waits until the job is in a final state; returns "STATE exit:signal" as scontrol shows it. */
  private static String awaitEnd(String id) {
    long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String state = field(id, "JobState");
      if (FINAL_STATES.contains(state)) {
        return state + " " + field(id, "ExitCode");
      }
      Daemon.sleep(Duration.ofMillis(200));
    }
    throw new AssertionError("job " + id + " did not end within " + JOB_TIMEOUT);
  }

  private static void awaitState(String id, String wanted) {
    long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
    while (!wanted.equals(field(id, "JobState"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("job " + id + " never reached " + wanted);
      }
      Daemon.sleep(Duration.ofMillis(200));
    }
  }

  private static String field(String id, String name) {
    String line = cluster.onLogin("scontrol", "--oneliner", "show", "job", id).orThrow().stdout();
    Matcher m = Pattern.compile("(?:^| )" + name + "=(\\S+)").matcher(line);
    return m.find() ? m.group(1) : "";
  }

  /** The job's line in the job completion log, as sacct -c reads it: "id|state|exit:signal". */
  private static String completionRecord(String id) {
    long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
    while (true) {
      String out =
          cluster
              .onLogin("sacct", "-c", "-n", "-P", "-j", id, "-o", "jobid,state,exitcode")
              .stdout()
              .trim();
      if (!out.isEmpty() || System.nanoTime() > deadline) {
        return out;
      }
      Daemon.sleep(Duration.ofMillis(200));
    }
  }

  private static Path generateInputs(Path dir) {
    Path inputs = dir.resolve("in");
    Commands.check(List.of("mkdir", "-p", inputs.toString()), JOB_TIMEOUT);
    Commands.check(
        List.of(
            cluster.nodeProgramsBuild().resolve("mcvar-gen").toString(),
            "--factors",
            "12",
            "--days",
            "260",
            "--positions",
            "300",
            "--option-share",
            "0.3",
            "--seed",
            "5",
            "--scenarios",
            "3000",
            "--out-dir",
            inputs.toString()),
        JOB_TIMEOUT);
    return inputs;
  }

  private static List<String> mcvar(Path inputs, Path out) {
    return List.of(
        "mpirun",
        cluster.nodeProgramsBuild().resolve("mcvar").toString(),
        "--factors",
        inputs.resolve("factors.csv").toString(),
        "--history",
        inputs.resolve("history.csv").toString(),
        "--positions",
        inputs.resolve("positions.csv").toString(),
        "--params",
        inputs.resolve("params.csv").toString(),
        "--run-id",
        "cluster-test",
        "--out-dir",
        out.toString());
  }

  private static Path runMcvarLocally(Path dir, Path inputs) throws IOException {
    Path out = Files.createDirectories(dir.resolve("out-1"));
    List<String> command = new ArrayList<>(mcvar(inputs, out));
    command.addAll(1, List.of("-np", "1"));
    Commands.run(command, cluster.clientEnvironment(), JOB_TIMEOUT).orThrow();
    return out;
  }

  private static void assertSameFiles(Path expected, Path actual) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(expected)) {
      files = s.sorted().toList();
    }
    assertEquals(9, files.size(), "mcvar writes its nine result files: " + files);
    for (Path file : files) {
      assertArrayEquals(
          Files.readAllBytes(file),
          Files.readAllBytes(actual.resolve(file.getFileName())),
          file.getFileName() + " differs");
    }
  }

  private static Path write(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
    file.toFile().setExecutable(true);
    return file;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(no " + file + ")";
    }
  }
}
