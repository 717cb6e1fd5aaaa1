package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.Await;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.CommandResult;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compute.backend=slurm} on a two-node namespace Slurm cluster: Alice's and Bob's MPI jobs
 * each put one rank on each node ({@code ProcessesPerHost} 1), so both jobs share both nodes, each
 * as its own OS account (Slurm's job user). From inside every rank, on both nodes, each job attacks
 * the other: reads its secret and staged input, lists and writes its job directory, replaces its
 * input, plants beside it; reads {@code /proc/PID/environ} of and signals every process of the
 * other job as {@code ps} shows them on the node (its ranks and its mpirun and orted, which run
 * outside the sandbox); lists the other's Open MPI session directory on the node; reads the
 * server's keys, job list and TLS password. Every attempt fails. The same attacks as the account
 * itself on the nodes, outside any sandbox, fail too, and so does cancelling the other's Slurm job
 * there (Slurm's client finds no configuration inside the sandbox): the job directories, processes
 * and Slurm jobs are the accounts', so a node without the sandbox ({@code
 * compute.require-sandbox=false}) still keeps the users apart.
 */
class SlurmRanksOnTwoNodesAttackTest {
  private static final String ALICE_OS = "gantry-test-alice";
  private static final String BOB_OS = "gantry-test-bob";
  private static final String PASSWORD = "a long enough password";
  private static final Duration LIMIT = Duration.ofMinutes(2);
  private static final int RANKS = 2;

  /**
   * Each rank: says where and who it is (for Slurm too), keeps a secret in its directory and
   * environment, waits for the test's {@code targets}, tries each attack and records whether it
   * worked, then waits for {@code release}.
   */
  private static final String RANK_SCRIPT =
      "r=$OMPI_COMM_WORLD_RANK; echo \"$(hostname) $(id -un) $SLURM_JOB_USER\" > who-$r.txt;"
          + " echo \"$PWD\" > wd-$r.txt; echo \"secret of $GANTRY_JOB_ID\" > secret-$r.txt;"
          + " export RISK_SECRET=$GANTRY_JOB_ID; echo up > up-$r;"
          + " while [ ! -e targets ]; do sleep 0.1; done; . ./targets; out=attack-$r.txt;"
          + " try() { if \"$@\" >/dev/null 2>&1; then echo \"WORKED $*\"; else echo \"denied $*\";"
          + " fi >> $out; };"
          + " try cat \"$OTHER_DIR/secret-0.txt\"; try cat \"$OTHER_DIR/input.csv\";"
          + " try ls \"$OTHER_DIR\"; try cp secret-$r.txt \"$OTHER_DIR/input.csv\";"
          + " try touch \"$OTHER_DIR/planted-$r\"; try mkdir \"$OTHER_DIR/../planted-$r\";"
          + " for p in $OTHER_PIDS; do try cat /proc/$p/environ; try kill -0 $p; done;"
          + " for s in $OTHER_SESSIONS; do try ls \"$s\"; done;"
          + " try ls \"$DATA/jobs\"; try cat \"$DATA/tls/keystore.password\"; try ls \"$DATA/keys\";"
          + " for k in $KEY_FILES; do try cat \"$k\"; done;"
          + " echo done > done-$r; while [ ! -e release ]; do sleep 0.1; done";

  @TempDir static Path dir;
  private static NamespaceCluster cluster;
  private static Path dataDir;
  private static Path inputs;

  @BeforeAll
  static void startATwoNodeSlurmCluster() {
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(2).slurm().start();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void twoUsersJobsShareBothNodesAndNoRankOfEitherReachesTheOtherOrTheServer() throws Exception {
    // the job accounts pass through the test's folder to their job directories, which the nodes
    // see at the same path
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    dataDir =
        Files.createDirectory(
            dir.resolve("server"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    inputs = Files.createDirectory(dir.resolve("inputs"));
    for (String user : List.of("alice", "bob")) {
      Files.writeString(inputs.resolve(user + ".csv"), "positions of " + user + "\n");
    }
    Map<String, String> settings = new HashMap<>(ClusterBackendSettings.slurm(cluster));
    settings.put("staging.file-roots", inputs.toString());
    settings.put("slots.total", Integer.toString(2 * RANKS)); // both jobs at once
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .secure()
            .settings(settings)
            .account(new TestAccount("alice", PASSWORD, false, ALICE_OS))
            .account(new TestAccount("bob", PASSWORD, false, BOB_OS))
            .start()) {
      JobManagement alice = JobManagementClients.of(server, new Login.Basic("alice", PASSWORD));
      JobManagement bob = JobManagementClients.of(server, new Login.Basic("bob", PASSWORD));
      String aliceJob = alice.submitJob(job("alice"));
      String bobJob = bob.submitJob(job("bob"));
      Path aliceDir = server.jobDirectory(aliceJob);
      Path bobDir = server.jobDirectory(bobJob);
      awaitRanks(server, alice, aliceJob);
      awaitRanks(server, bob, bobJob);

      int aliceAttempts = writeTargets(aliceDir, bobJob, bobDir);
      int bobAttempts = writeTargets(bobDir, aliceJob, aliceDir);
      for (Path jobDir : List.of(aliceDir, bobDir)) {
        for (int r = 0; r < RANKS; r++) {
          Await.fileContaining(jobDir.resolve("done-" + r), "done", LIMIT);
        }
      }
      theAccountAloneKeepsTheOtherOut(ALICE_OS, bobJob, bobDir);
      theAccountAloneKeepsTheOtherOut(BOB_OS, aliceJob, aliceDir);
      Files.writeString(aliceDir.resolve("release"), "go");
      Files.writeString(bobDir.resolve("release"), "go");
      assertSucceeded(alice, aliceJob);
      assertSucceeded(bob, bobJob);

      assertOwnJobOnBothNodes(aliceDir, ALICE_OS, "alice", aliceAttempts);
      assertOwnJobOnBothNodes(bobDir, BOB_OS, "bob", bobAttempts);
      try (Stream<Path> jobs = Files.list(dataDir.resolve("jobs"))) {
        assertTrue(
            jobs.noneMatch(f -> f.getFileName().toString().startsWith("planted")),
            "nothing planted beside the job directories");
      }
    }
  }

  /**
   * The job's ranks ran one on each node, as its account, in the sandbox at {@code /job}; its
   * directory and staged input are its account's alone and unchanged; every attack failed.
   */
  private static void assertOwnJobOnBothNodes(
      Path jobDir, String account, String user, int attempts) throws Exception {
    List<String> seen = new ArrayList<>();
    for (int r = 0; r < RANKS; r++) {
      seen.add(Files.readString(jobDir.resolve("who-" + r + ".txt")).strip());
      assertEquals("/job", Files.readString(jobDir.resolve("wd-" + r + ".txt")).strip());
    }
    assertEquals(
        List.of("n1 " + account + " " + account, "n2 " + account + " " + account),
        seen.stream().sorted().toList(),
        "one rank on each node, as the job's own account and Slurm job user");
    assertEquals(account, Files.getOwner(jobDir, LinkOption.NOFOLLOW_LINKS).getName());
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(jobDir, LinkOption.NOFOLLOW_LINKS)));
    Path input = jobDir.resolve("input.csv");
    assertEquals(account, Files.getOwner(input, LinkOption.NOFOLLOW_LINKS).getName());
    assertEquals("positions of " + user, Files.readString(input).strip(), "input unchanged");
    for (int r = 0; r < RANKS; r++) {
      String attacks = Files.readString(jobDir.resolve("attack-" + r + ".txt"));
      assertFalse(attacks.contains("WORKED"), jobDir + " rank " + r + ":\n" + attacks);
      assertEquals(attempts, attacks.lines().count(), attacks);
    }
    try (Stream<Path> files = Files.list(jobDir)) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("planted")));
    }
  }

  /**
   * Outside the sandbox, as the attacker's account itself on each node (where a node without
   * bubblewrap would run its ranks): the victim's directory, input, processes and Slurm job stay
   * out of reach.
   */
  private static void theAccountAloneKeepsTheOtherOut(
      String attacker, String victimJob, Path victimDir) throws Exception {
    List<String> pids = new ArrayList<>(JobProcesses.shells(victimJob, "targets"));
    pids.addAll(JobProcesses.openMpiDaemons(victimJob));
    for (NamespaceCluster.Node node : cluster.nodes()) {
      List<List<String>> attacks =
          new ArrayList<>(
              List.of(
                  List.of("cat", victimDir + "/secret-0.txt"),
                  List.of("cat", victimDir + "/input.csv"),
                  List.of("ls", victimDir.toString()),
                  List.of("touch", victimDir + "/planted-outside"),
                  List.of("scancel", slurmJob(victimJob))));
      for (String pid : pids) {
        attacks.add(List.of("cat", "/proc/" + pid + "/environ"));
        attacks.add(List.of("kill", "-0", pid));
      }
      for (List<String> attack : attacks) {
        List<String> argv = new ArrayList<>(List.of("runuser", "-u", attacker, "--"));
        argv.addAll(attack);
        CommandResult result = cluster.onNode(node, argv, Duration.ofSeconds(30));
        assertFalse(result.succeeded(), attacker + " on " + node.name() + ": " + attack);
      }
    }
  }

  private static io.gantry.server.api.JobDocument job(String user) {
    String spmd =
        "<spmd:SPMDApplication xmlns:spmd=\"http://schemas.ogf.org/jsdl/2007/02/jsdl-spmd\">"
            + "<posix:Executable>/bin/sh</posix:Executable><posix:Argument>-c</posix:Argument>"
            + "<posix:Argument>"
            + RANK_SCRIPT.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            + "</posix:Argument><posix:Output>stdout.txt</posix:Output>"
            + "<posix:Error>stderr.txt</posix:Error>"
            + "<spmd:NumberOfProcesses>"
            + RANKS
            + "</spmd:NumberOfProcesses><spmd:ProcessesPerHost>1</spmd:ProcessesPerHost>"
            + "<spmd:SPMDVariation>http://www.ogf.org/jsdl/2007/02/jsdl-spmd/MPI</spmd:SPMDVariation>"
            + "</spmd:SPMDApplication>";
    String xml =
        TestJobs.job(user + "-on-two-nodes")
            .stageIn("input.csv", "file:" + inputs.resolve(user + ".csv"))
            .xml();
    String empty = "<jsdl:Application></jsdl:Application>";
    assertTrue(xml.contains(empty), xml);
    return TestJobs.documentOf(
        xml.replace(empty, "<jsdl:Application>" + spmd + "</jsdl:Application>"));
  }

  /** The Slurm job id of a Gantry job, from squeue on the login host. */
  private static String slurmJob(String jobId) {
    String id =
        cluster.onLogin("squeue", "-h", "--name=gantry-" + jobId, "-o", "%i").stdout().strip();
    assertTrue(id.matches("\\d+"), "Slurm job of " + jobId + ": " + id);
    return id;
  }

  /**
   * The attacker's targets, a root-owned file it may read (its directory is its own): every host
   * path it could want, the victim's processes as {@code ps} shows them on the nodes and its Open
   * MPI session directories there. Returns the number of attempts each rank makes.
   */
  private static int writeTargets(Path attacker, String victimJob, Path victimDir)
      throws Exception {
    List<String> ranks = JobProcesses.shells(victimJob, "targets");
    assertEquals(RANKS, ranks.size(), "the victim's ranks: " + ranks);
    List<String> daemons = JobProcesses.openMpiDaemons(victimJob);
    assertFalse(daemons.isEmpty(), "the victim's mpirun");
    Set<String> sessions = new LinkedHashSet<>();
    for (String rank : ranks) {
      String session = JobProcesses.environmentVariable(rank, "OMPI_MCA_orte_jobfam_session_dir");
      assertNotNull(session, "the session directory of rank " + rank);
      sessions.add(session);
    }
    List<String> pids = new ArrayList<>(ranks);
    pids.addAll(daemons);
    List<String> keyFiles;
    try (Stream<Path> keys = Files.walk(dataDir.resolve("keys"))) {
      keyFiles = keys.filter(Files::isRegularFile).map(Path::toString).toList();
    }
    Path targets = attacker.resolve("targets.partial");
    Files.writeString(
        targets,
        "OTHER_DIR='"
            + victimDir
            + "'\nOTHER_PIDS='"
            + String.join(" ", pids)
            + "'\nOTHER_SESSIONS='"
            + String.join(" ", sessions)
            + "'\nDATA='"
            + dataDir
            + "'\nKEY_FILES='"
            + String.join(" ", keyFiles)
            + "'\n");
    Files.setPosixFilePermissions(targets, PosixFilePermissions.fromString("rw-r--r--"));
    Files.move(targets, attacker.resolve("targets"));
    return 6 + 2 * pids.size() + sessions.size() + 3 + keyFiles.size();
  }

  /** Waits for every rank to start; a job that ended instead fails the test at once, saying why. */
  private static void awaitRanks(GantryTestServer server, JobManagement client, String id)
      throws Exception {
    Path jobDir = server.jobDirectory(id);
    for (int r = 0; r < RANKS; r++) {
      Path up = jobDir.resolve("up-" + r);
      try {
        Await.until(
            up + " (both jobs running side by side)",
            LIMIT,
            () -> {
              JobStatusInfo status = client.getJobStatus(id);
              if (TestJobs.isFinal(status.state)) {
                throw new AssertionError(
                    id + " ended " + status.state + ": " + status.failureReason);
              }
              return Files.exists(up);
            });
      } catch (AssertionError e) {
        Path stderr = jobDir.resolve("stderr.txt");
        throw new AssertionError(
            e.getMessage()
                + "\nSlurm: "
                + cluster.onLogin("squeue", "-h", "-o", "%i %j %u %T %R %N").stdout()
                + "\nstderr: "
                + (Files.exists(stderr) ? Files.readString(stderr) : "(none)")
                + "\n"
                + server.log(),
            e);
      }
    }
  }

  private static void assertSucceeded(JobManagement client, String id) throws Exception {
    JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, () -> id + ": " + end.failureReason);
  }
}
