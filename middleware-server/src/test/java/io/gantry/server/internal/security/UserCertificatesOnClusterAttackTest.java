package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.internal.sshca.JobCertificates;
import io.gantry.server.internal.sshca.UserCertificateAuthority;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.Await;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.CommandResult;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.TestAccount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
 * A cluster reached over SSH ({@code compute.ssh-host}) with per-user certificates ({@code
 * compute.user-certificates}): the login host's sshd trusts the server's user CA and knows no key
 * for the users' accounts. Alice's and Bob's jobs are staged, submitted and followed over their own
 * logins, so each job directory ({@code compute.root/ACCOUNT/JOB}, 0700), its staged input and the
 * Slurm job belong to the job's user. Side by side on one Slurm node, each job attacks the other:
 * reads and writes its directory and staged input, lists and writes its account's directory, reads
 * its {@code /proc/PID/environ}, signals it, reads the server's keys. Every attempt fails; a
 * certificate of the CA for one account opens no other, an expired one opens nothing; a server
 * killed with -9 follows its job again over a new login.
 */
class UserCertificatesOnClusterAttackTest {
  private static final String ALICE_OS = "gantry-test-alice";
  private static final String BOB_OS = "gantry-test-bob";
  private static final String PASSWORD = "a long enough password";
  private static final Duration LIMIT = Duration.ofMinutes(2);

  /**
   * The job: says who it is, for Slurm too; keeps a secret in its directory and environment; waits
   * for the test's {@code targets} (the other job's directory, account directory and pid, the
   * server's keys), tries each attack and records whether it worked, then waits for {@code
   * release}.
   */
  private static final String JOB_SCRIPT =
      "echo \"$(id -un) $SLURM_JOB_USER\" > who.txt; echo $$ > pid;"
          + " echo \"secret of $GANTRY_JOB_ID\" > secret.txt; export RISK_SECRET=$GANTRY_JOB_ID;"
          + " while [ ! -e targets ]; do sleep 0.1; done; . ./targets; out=attack.txt;"
          + " try() { if \"$@\" >/dev/null 2>&1; then echo \"WORKED $*\"; else echo \"denied $*\";"
          + " fi >> $out; };"
          + " try cat \"$OTHER_DIR/secret.txt\"; try cat \"$OTHER_DIR/input.csv\";"
          + " try ls \"$OTHER_DIR\"; try cp secret.txt \"$OTHER_DIR/input.csv\";"
          + " try touch \"$OTHER_DIR/planted\"; try ls \"$OTHER_ACCOUNT_DIR\";"
          + " try mkdir \"$OTHER_ACCOUNT_DIR/planted\"; try mv \"$OTHER_DIR\" \"$OTHER_DIR.moved\";"
          + " try ls \"$ROOT\"; try cat /proc/$OTHER_PID/environ; try kill -0 $OTHER_PID;"
          + " try ls \"$KEYS\"; try cat \"$KEYS/ssh-user-ca.pk8\";"
          + " echo done > done; while [ ! -e release ]; do sleep 0.1; done";

  private static final int ATTEMPTS = 13;

  @TempDir static Path dir;
  private static NamespaceCluster cluster;
  private static Path dataDir;
  private static Path root;
  private static Path inputs;
  private static GantryTestServerBuilder servers;

  @BeforeAll
  static void startALoginHostTrustingTheServersCa() throws Exception {
    // the job accounts pass through the test's folder to compute.root and the inputs, which the
    // cluster's hosts see at the same path
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    dataDir =
        Files.createDirectory(
            dir.resolve("server"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    // compute.root as an operator may set it up: every account makes its own directory there,
    // none may list it or touch another's (sticky)
    root = Files.createDirectory(dir.resolve("cluster-root"));
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx-wx-wx"));
    assertEquals(0, new ProcessBuilder("chmod", "+t", root.toString()).start().waitFor());
    inputs = Files.createDirectory(dir.resolve("inputs"));
    Files.setPosixFilePermissions(inputs, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String user : List.of("alice", "bob")) {
      Path input = Files.writeString(inputs.resolve(user + ".csv"), "positions of " + user + "\n");
      Files.setPosixFilePermissions(input, PosixFilePermissions.fromString("rw-r--r--"));
    }
    Path trusted =
        Files.writeString(
            dir.resolve("trusted-user-ca.pub"),
            UserCertificateAuthority.loadOrCreate(dataDir.resolve("keys")).publicKeyLine() + "\n");
    cluster =
        NamespaceCluster.builder()
            .nodes(1)
            .cpusPerNode(2)
            .slurm()
            .sshd()
            .trustedUserCa(trusted, ALICE_OS, BOB_OS)
            .start();
    Map<String, String> settings =
        new HashMap<>(ClusterBackendSettings.slurmOverSsh(cluster, root));
    settings.put("compute.user-certificates", "true");
    settings.put("staging.file-roots", inputs.toString());
    servers =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .secure()
            .settings(settings)
            .account(new TestAccount("alice", PASSWORD, false, ALICE_OS))
            .account(new TestAccount("bob", PASSWORD, false, BOB_OS))
            // an OS account the login node's sshd does not let in
            .account(new TestAccount("carol", PASSWORD, false, "nobody"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void eachUsersJobIsItsOwnOnTheClusterAndNeitherReachesTheOtherEvenAcrossARestart()
      throws Exception {
    String aliceJob;
    String bobJob;
    try (GantryTestServer first = servers.name("cluster-certificates-first").start()) {
      aliceJob = client(first, "alice").submitJob(job("alice"));
      bobJob = client(first, "bob").submitJob(job("bob"));
      // a job whose account cannot log in to the cluster is refused at submit, naming both
      InvalidJobFault refused =
          assertThrows(InvalidJobFault.class, () -> client(first, "carol").submitJob(job("bob")));
      String why = refused.getFaultInfo().problems.get(0).message;
      assertTrue(
          why.startsWith("the job's OS account nobody cannot log in to the cluster ")
              && why.contains(cluster.loginSshEndpoint().getPort() + ""),
          why);
      Path aliceDir = root.resolve(ALICE_OS).resolve(aliceJob);
      Path bobDir = root.resolve(BOB_OS).resolve(bobJob);
      awaitRunning(first, "alice", aliceJob, aliceDir.resolve("pid"));
      awaitRunning(first, "bob", bobJob, bobDir.resolve("pid"));
      // the server's readers read a running job's files as its account too
      assertEquals(
          BOB_OS + " " + BOB_OS,
          new String(
                  client(first, "bob").getJobFile(bobJob, "who.txt", 0, 1024).data,
                  StandardCharsets.UTF_8)
              .strip());
      first.killHard(); // both jobs run on in Slurm, with no server
    }
    Path aliceDir = root.resolve(ALICE_OS).resolve(aliceJob);
    Path bobDir = root.resolve(BOB_OS).resolve(bobJob);
    try (GantryTestServer second = servers.name("cluster-certificates-second").start()) {
      writeTargets(aliceDir, BOB_OS, bobDir);
      writeTargets(bobDir, ALICE_OS, aliceDir);
      Await.fileContaining(aliceDir.resolve("done"), "done", LIMIT);
      Await.fileContaining(bobDir.resolve("done"), "done", LIMIT);
      certificatesOpenOnlyTheirOwnAccount(aliceDir, bobDir);
      Files.writeString(aliceDir.resolve("release"), "go");
      Files.writeString(bobDir.resolve("release"), "go");
      JobManagement alice = client(second, "alice");
      JobManagement bob = client(second, "bob");
      assertSucceeded(alice, aliceJob);
      assertSucceeded(bob, bobJob);
      // read back over SFTP as the job's own account, after the job's own login ended
      OutputChunk aliceOut = alice.getJobOutput(aliceJob, OutputStreamName.STDOUT, 0, 1024);
      assertEquals(0L, aliceOut.size.longValue(), aliceOut.note);
      assertEquals(
          ALICE_OS + " " + ALICE_OS,
          new String(alice.getJobFile(aliceJob, "who.txt", 0, 1024).data, StandardCharsets.UTF_8)
              .strip());
      assertFalse(second.log().contains("PRIVATE KEY"), "no key in the server's log");
    }
    assertOwnJob(aliceDir, ALICE_OS, "alice");
    assertOwnJob(bobDir, BOB_OS, "bob");
    try (var keys = Files.list(dataDir.resolve("keys"))) {
      assertEquals(
          List.of("ssh-user-ca.pk8", "ssh-user-ca.pub"),
          keys.map(p -> p.getFileName().toString())
              .filter(n -> n.startsWith("ssh"))
              .sorted()
              .toList(),
          "a cluster job's key is never a file");
    }
  }

  /** The job's files, its account's directory and its Slurm job are its user's; attacks failed. */
  private static void assertOwnJob(Path jobDir, String account, String user) throws Exception {
    assertEquals(account + " " + account, Files.readString(jobDir.resolve("who.txt")).strip());
    for (Path p : List.of(jobDir, jobDir.getParent())) {
      assertEquals(account, Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName(), p.toString());
      assertEquals("rwx------", mode(p), p.toString());
    }
    Path input = jobDir.resolve("input.csv");
    assertEquals(account, Files.getOwner(input, LinkOption.NOFOLLOW_LINKS).getName());
    assertEquals("positions of " + user, Files.readString(input).strip(), "input unchanged");
    String attacks = Files.readString(jobDir.resolve("attack.txt"));
    assertFalse(attacks.contains("WORKED"), jobDir + ":\n" + attacks);
    assertEquals(ATTEMPTS, attacks.lines().count(), attacks);
    try (var files = Files.list(jobDir.getParent())) {
      assertTrue(
          files.noneMatch(f -> f.getFileName().toString().startsWith("planted")),
          "nothing planted beside " + jobDir);
    }
    try (var files = Files.list(jobDir)) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("planted")));
    }
  }

  /**
   * What a thief of a job's key could try: a certificate of the CA for alice's account logs in as
   * it (and reads her job), not as Bob or root, and reads nothing of Bob's; an expired one opens
   * nothing.
   */
  private static void certificatesOpenOnlyTheirOwnAccount(Path aliceDir, Path bobDir)
      throws Exception {
    JobCertificates certificates =
        new JobCertificates(
            UserCertificateAuthority.loadOrCreate(dataDir.resolve("keys")),
            dir.resolve("stolen"),
            Duration.ZERO,
            List.of());
    Path key = certificates.issue("stolen", ALICE_OS, Duration.ofMinutes(2)).identity();
    assertEquals(
        "secret of", ssh(key, ALICE_OS, "cat", aliceDir + "/secret.txt").stdout().substring(0, 9));
    assertFalse(ssh(key, BOB_OS, "id").succeeded(), "alice's certificate opens bob's account");
    assertFalse(ssh(key, "root", "id").succeeded(), "alice's certificate opens root");
    assertFalse(ssh(key, ALICE_OS, "cat", bobDir + "/secret.txt").succeeded());
    Path expired = certificates.issue("expired", BOB_OS, Duration.ofSeconds(-30)).identity();
    CommandResult refused = ssh(expired, BOB_OS, "id");
    assertFalse(refused.succeeded(), "an expired certificate logs in: " + refused.stdout());
  }

  private static CommandResult ssh(Path key, String account, String... command) {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "ssh",
                "-i",
                key.toString(),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "UserKnownHostsFile=" + cluster.knownHosts(),
                "-o",
                "StrictHostKeyChecking=yes",
                "-o",
                "BatchMode=yes",
                "-l",
                account,
                cluster.loginAddress()));
    argv.addAll(List.of(command));
    return cluster.onLogin(argv, Duration.ofSeconds(30));
  }

  private static JobManagement client(GantryTestServer server, String user) {
    return JobManagementClients.of(server, new Login.Basic(user, PASSWORD));
  }

  private static io.gantry.server.api.JobDocument job(String user) {
    return TestJobs.job(user + "-on-cluster")
        .stageIn("input.csv", "file:" + inputs.resolve(user + ".csv"))
        .shell(JOB_SCRIPT, 300)
        .document();
  }

  /**
   * The victim's program's pid on its node, as {@code ps} shows it there (the job sees only its own
   * PID namespace in its sandbox); the job directory is named after the job.
   */
  private static String victimPid(Path victimDir) throws Exception {
    List<String> pids = JobProcesses.shells(victimDir.getFileName().toString(), "targets");
    assertEquals(1, pids.size(), "the victim's program: " + pids);
    return pids.get(0);
  }

  /** The attacker's targets, a root-owned file it may read (its directory is its own). */
  private static void writeTargets(Path attacker, String victimAccount, Path victimDir)
      throws Exception {
    Path targets = attacker.resolve("targets.partial");
    Files.writeString(
        targets,
        "OTHER_DIR='"
            + victimDir
            + "'\nOTHER_ACCOUNT_DIR='"
            + root.resolve(victimAccount)
            + "'\nOTHER_PID='"
            + victimPid(victimDir)
            + "'\nROOT='"
            + root
            + "'\nKEYS='"
            + dataDir.resolve("keys")
            + "'\n");
    Files.setPosixFilePermissions(targets, PosixFilePermissions.fromString("rw-r--r--"));
    Files.move(targets, attacker.resolve("targets"));
  }

  /** Waits for the job to start; a job that ended instead fails the test at once, saying why. */
  private static void awaitRunning(GantryTestServer server, String user, String id, Path file)
      throws Exception {
    JobManagement client = client(server, user);
    Await.until(
        file + " (both jobs running side by side)",
        LIMIT,
        () -> {
          JobStatusInfo status = client.getJobStatus(id);
          if (TestJobs.isFinal(status.state)) {
            throw new AssertionError(
                id + " ended " + status.state + ": " + status.failureReason + "\n" + server.log());
          }
          return Files.exists(file);
        });
  }

  private static void assertSucceeded(JobManagement client, String id) throws Exception {
    JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, () -> id + ": " + end.failureReason);
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }
}
