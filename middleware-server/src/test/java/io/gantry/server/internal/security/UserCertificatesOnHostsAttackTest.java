package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.sshca.JobCertificates;
import io.gantry.server.internal.sshca.RevokedCertificates;
import io.gantry.server.internal.sshca.UserCertificateAuthority;
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
 * mpirun-hosts with per-user SSH certificates ({@code compute.user-certificates}) on two sshd hosts
 * (network namespaces) that trust the server's user CA and know no key at all for the users'
 * accounts. Alice's and Bob's jobs run side by side, each rank as its own user's account on both
 * hosts, and attack each other and the server from there: read and write the other's job directory,
 * read the other's ranks' {@code /proc/PID/environ}, signal them, read the server's keys. The test
 * then tries what a thief of a job's key could: log in as another account with it, or with an
 * expired certificate. Every attempt fails, and the job's key is gone once it ends.
 */
class UserCertificatesOnHostsAttackTest {
  private static final String ALICE_OS = "gantry-test-alice";
  private static final String BOB_OS = "gantry-test-bob";
  private static final String PASSWORD = "a long enough password";
  private static final Duration LIMIT = Duration.ofMinutes(2);
  private static final int RANKS = 2;

  /**
   * Each rank: says who and where it is, keeps a secret in its directory and environment, waits for
   * the test's {@code targets} (the other job's directory and rank pids, the server's key
   * directory), tries each attack and records whether it worked, then waits for {@code release}.
   */
  private static final String RANK_SCRIPT =
      "r=$OMPI_COMM_WORLD_RANK; echo \"$(hostname) $(id -un)\" > who-$r.txt; echo $$ > pid-$r;"
          + " echo \"$PWD\" > wd-$r.txt;"
          + " echo \"secret of $GANTRY_JOB_ID\" > secret-$r.txt; export RISK_SECRET=$GANTRY_JOB_ID;"
          + " while [ ! -e targets ]; do sleep 0.1; done; . ./targets; out=attack-$r.txt;"
          + " try() { if \"$@\" >/dev/null 2>&1; then echo \"WORKED $*\"; else echo \"denied $*\";"
          + " fi >> $out; };"
          + " try cat \"$OTHER_DIR/secret-0.txt\"; try ls \"$OTHER_DIR\";"
          + " try touch \"$OTHER_DIR/planted-$r\"; try mkdir \"$OTHER_DIR/../planted-$r\";"
          + " for p in $OTHER_PIDS; do try cat /proc/$p/environ; try kill -0 $p; done;"
          + " try ls \"$KEYS\"; try cat \"$KEYS/ssh-user-ca.pk8\";"
          + " try cat \"$KEYS/job-ssh/$OTHER_JOB/id\"; try cat \"$KEYS/job-ssh/$GANTRY_JOB_ID/id\";"
          + " echo done > done-$r; while [ ! -e release ]; do sleep 0.1; done";

  /** Attempts per rank: 4 on the directory, 2 per victim rank, 4 on the server's keys. */
  private static final int ATTEMPTS = 4 + 2 * RANKS + 4;

  private static final Path STEPD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-stepd");

  @TempDir static Path dir;
  private static NamespaceCluster cluster;
  private static GantryTestServer server;
  private static Path dataDir;

  /** The data directory of the restart test's servers, whose CA the hosts trust too. */
  private static Path restartDataDir;

  @BeforeAll
  static void startHostsTrustingTheServersCaAndTheServer() throws Exception {
    // the job accounts pass through the test's folder and the data directory to their job
    // directories, which the hosts see at the same path
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    dataDir =
        Files.createDirectory(
            dir.resolve("server"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    restartDataDir =
        Files.createDirectory(
            dir.resolve("restarted"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    // the CAs as the servers make them at their first start; the hosts read them at each login
    Path trusted =
        Files.writeString(
            dir.resolve("trusted-user-cas.pub"),
            UserCertificateAuthority.loadOrCreate(dataDir.resolve("keys")).publicKeyLine()
                + "\n"
                + UserCertificateAuthority.loadOrCreate(restartDataDir.resolve("keys"))
                    .publicKeyLine()
                + "\n");
    // the server's key revocation list, which every host's sshd reads at each login
    RevokedCertificates revoked = new RevokedCertificates(dataDir.resolve("keys"));
    revoked.ensureExists();
    cluster =
        NamespaceCluster.builder()
            .nodes(2)
            .cpusPerNode(1)
            .sshd()
            .trustedUserCa(trusted, ALICE_OS, BOB_OS)
            .revokedKeys(revoked.file())
            .start();
    server = servers(dataDir, Map.of()).start();
  }

  /** A server on {@code data}: mpirun-hosts with per-user certificates, alice and bob. */
  private static io.gantry.testing.server.GantryTestServerBuilder servers(
      Path data, Map<String, String> more) throws Exception {
    Map<String, String> settings =
        new HashMap<>(
            ClusterBackendSettings.mpirunHosts(
                cluster, ClusterBackendSettings.mpirunOnLogin(cluster, dir)));
    settings.put("compute.user-certificates", "true");
    settings.put("slots.total", "4");
    settings.putAll(more);
    return GantryTestServer.builder(dir)
        .dataDir(data)
        .secure()
        .settings(settings)
        .account(new TestAccount("alice", PASSWORD, false, ALICE_OS))
        .account(new TestAccount("bob", PASSWORD, false, BOB_OS))
        .account(new TestAccount("carol", PASSWORD, false, ALICE_OS))
        .account(new TestAccount("admin", PASSWORD, true, BOB_OS));
  }

  /**
   * A job under gantry-stepd outlives a SIGKILL of the server with its certificate's ssh sessions
   * up; the next server follows it to SUCCEEDED and destroys the job's key once it ends.
   */
  @Test
  void aJobOnItsOwnAccountOutlivesAServerCrashAndItsKeyIsDestroyedWhenItEnds() throws Exception {
    assertTrue(Files.isExecutable(STEPD), "build the node programs first: " + STEPD);
    var builder = servers(restartDataDir, Map.of("jobs.supervisor", STEPD.toString()));
    String id;
    Path key;
    try (GantryTestServer first = builder.name("certificates-first").start()) {
      JobManagement alice = JobManagementClients.of(first, new Login.Basic("alice", PASSWORD));
      id =
          alice.submitJob(
              TestJobs.job("outlives")
                  .mpirun(
                      RANKS,
                      300,
                      "/bin/sh",
                      "-c",
                      "r=$OMPI_COMM_WORLD_RANK; echo \"$(hostname) $(id -un)\" > who-$r.txt;"
                          + " while [ ! -e release ]; do sleep 0.1; done")
                  .document());
      key = restartDataDir.resolve("keys/job-ssh/" + id + "/id");
      for (int r = 0; r < RANKS; r++) {
        Path who = first.jobDirectory(id).resolve("who-" + r + ".txt");
        Await.until(who + " (the ranks started)", LIMIT, () -> Files.exists(who));
      }
      first.killHard();
    }
    assertTrue(Files.exists(key), "the job's key stays while its job runs without a server");
    try (GantryTestServer second = builder.name("certificates-second").start()) {
      JobManagement alice = JobManagementClients.of(second, new Login.Basic("alice", PASSWORD));
      Files.writeString(second.jobDirectory(id).resolve("release"), "go");
      assertSucceeded(alice, id);
      assertRanAs(second.jobDirectory(id), ALICE_OS);
      Await.until(
          "the job's key to be destroyed once the followed job ended",
          LIMIT,
          () -> !Files.exists(key.getParent()));
    }
  }

  /**
   * Removing a user revokes their jobs' certificates: a copy of a running job's key and certificate
   * logs in before the removal and not after, through the server's key revocation list, which every
   * host's sshd reads ({@code RevokedKeys}) although the certificate is still valid.
   */
  @Test
  void aRemovedUsersCertificatesAreRevokedOnTheHosts() throws Exception {
    JobManagement carol = JobManagementClients.of(server, new Login.Basic("carol", PASSWORD));
    String id =
        carol.submitJob(
            TestJobs.job("carol-waits")
                .mpirun(
                    RANKS,
                    300,
                    "/bin/sh",
                    "-c",
                    "echo up > up-$OMPI_COMM_WORLD_RANK; while [ ! -e release ]; do sleep 0.1; done")
                .document());
    Path jobDir = server.jobDirectory(id);
    Await.until(id + " running", LIMIT, () -> Files.exists(jobDir.resolve("up-0")));
    Path key = dataDir.resolve("keys/job-ssh/" + id + "/id");
    Path stolen = Files.createDirectories(dir.resolve("stolen-from-carol"));
    Files.copy(key, stolen.resolve("key"));
    Files.copy(key.resolveSibling("id-cert.pub"), stolen.resolve("key-cert.pub"));
    assertEquals(ALICE_OS, ssh(stolen.resolve("key"), ALICE_OS).stdout().strip());

    JobManagement admin = JobManagementClients.of(server, new Login.Basic("admin", PASSWORD));
    admin.removeUser("carol");
    CommandResult after = ssh(stolen.resolve("key"), ALICE_OS);
    assertFalse(after.succeeded(), "a removed user's certificate logs in: " + after.stdout());
    Files.writeString(jobDir.resolve("release"), "go");
    TestJobs.awaitFinal(admin, id, LIMIT);
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
  void twoUsersJobsRunAsTheirOwnAccountsOnEveryHostAndNeitherReachesTheOtherNorTheServer()
      throws Exception {
    JobManagement alice = JobManagementClients.of(server, new Login.Basic("alice", PASSWORD));
    JobManagement bob = JobManagementClients.of(server, new Login.Basic("bob", PASSWORD));
    String aliceJob = alice.submitJob(job("alice-ranks"));
    String bobJob = bob.submitJob(job("bob-ranks"));
    Path aliceDir = server.jobDirectory(aliceJob);
    Path bobDir = server.jobDirectory(bobJob);
    awaitRanks(alice, aliceJob);
    awaitRanks(bob, bobJob);
    // while both run, each job's key and certificate are the server's, never in the job directory
    Path aliceKey = dataDir.resolve("keys/job-ssh/" + aliceJob + "/id");
    assertTrue(Files.exists(aliceKey), "alice's job has its own key while it runs");
    assertEquals("rw-------", mode(aliceKey));
    stolenKeyOpensOnlyItsOwnAccount(aliceKey);

    writeTargets(aliceDir, bobJob, bobDir);
    writeTargets(bobDir, aliceJob, aliceDir);
    for (Path jobDir : List.of(aliceDir, bobDir)) {
      for (int r = 0; r < RANKS; r++) {
        Await.fileContaining(jobDir.resolve("done-" + r), "done", LIMIT);
      }
    }
    Files.writeString(aliceDir.resolve("release"), "go");
    Files.writeString(bobDir.resolve("release"), "go");
    assertSucceeded(alice, aliceJob);
    assertSucceeded(bob, bobJob);

    assertRanAs(aliceDir, ALICE_OS);
    assertRanAs(bobDir, BOB_OS);
    for (Path jobDir : List.of(aliceDir, bobDir)) {
      for (int r = 0; r < RANKS; r++) {
        assertEquals(
            "/job",
            Files.readString(jobDir.resolve("wd-" + r + ".txt")).strip(),
            "every rank runs in the job sandbox on its host, its directory at /job");
      }
    }
    for (Path jobDir : List.of(aliceDir, bobDir)) {
      for (int r = 0; r < RANKS; r++) {
        String attacks = Files.readString(jobDir.resolve("attack-" + r + ".txt"));
        assertFalse(attacks.contains("WORKED"), jobDir + " rank " + r + ":\n" + attacks);
        assertEquals(ATTEMPTS, attacks.lines().count(), attacks);
      }
      try (var files = Files.list(jobDir)) {
        assertTrue(
            files.noneMatch(f -> f.getFileName().toString().startsWith("planted")),
            "nothing planted in " + jobDir);
      }
    }
    Await.until(
        "both jobs' keys to be destroyed once they ended",
        LIMIT,
        () ->
            !Files.exists(aliceKey.getParent())
                && !Files.exists(dataDir.resolve("keys/job-ssh/" + bobJob)));
    String log = server.log();
    assertFalse(log.contains("OPENSSH PRIVATE KEY"), "no key in the server's log");
  }

  /**
   * A copy of a job's key and certificate (what a thief of the server's host would take) logs in as
   * the job's account, and as no other: not Bob's account, not root; a certificate of the same CA
   * that has expired opens nothing.
   */
  private void stolenKeyOpensOnlyItsOwnAccount(Path jobKey) throws Exception {
    Path stolen = Files.createDirectories(dir.resolve("stolen"));
    Files.copy(jobKey, stolen.resolve("key"));
    Files.copy(jobKey.resolveSibling("id-cert.pub"), stolen.resolve("key-cert.pub"));
    assertEquals("gantry-test-alice", ssh(stolen.resolve("key"), ALICE_OS).stdout().strip());
    assertFalse(ssh(stolen.resolve("key"), BOB_OS).succeeded(), "alice's certificate opens bob's");
    assertFalse(ssh(stolen.resolve("key"), "root").succeeded(), "alice's certificate opens root");

    JobCertificates expired =
        new JobCertificates(
            UserCertificateAuthority.loadOrCreate(dataDir.resolve("keys")),
            dir.resolve("expired"),
            Duration.ZERO,
            List.of());
    var old = expired.issue("expired-job", ALICE_OS, Duration.ofSeconds(-30));
    CommandResult refused = ssh(old.identity(), ALICE_OS);
    assertFalse(refused.succeeded(), "an expired certificate logs in: " + refused.stdout());
  }

  private static CommandResult ssh(Path key, String account) {
    List<String> command =
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
                cluster.nodes().get(0).address(),
                "id",
                "-un"));
    return cluster.onLogin(command, Duration.ofSeconds(30));
  }

  private static io.gantry.server.api.JobDocument job(String name) {
    return TestJobs.job(name).mpirun(RANKS, 300, "/bin/sh", "-c", RANK_SCRIPT).document();
  }

  /** The attacker's targets, a root-owned file it may read (its directory is its own). */
  private static void writeTargets(Path attacker, String victimJob, Path victimDir)
      throws Exception {
    // the ranks' pids on the hosts, as ps shows them there (each rank sees its own PID namespace)
    List<String> pids = JobProcesses.shells(victimJob, "targets");
    assertEquals(RANKS, pids.size(), "the victim's ranks: " + pids);
    Path targets = attacker.resolve("targets.partial");
    Files.writeString(
        targets,
        "OTHER_DIR='"
            + victimDir
            + "'\nOTHER_JOB='"
            + victimJob
            + "'\nOTHER_PIDS='"
            + String.join(" ", pids)
            + "'\nKEYS='"
            + dataDir.resolve("keys")
            + "'\n");
    Files.setPosixFilePermissions(targets, PosixFilePermissions.fromString("rw-r--r--"));
    Files.move(targets, attacker.resolve("targets"));
  }

  /** Waits for the job's ranks to start; a job that ended instead fails the test at once. */
  private static void awaitRanks(JobManagement client, String id) throws Exception {
    Path jobDir = server.jobDirectory(id);
    for (int r = 0; r < RANKS; r++) {
      Path pid = jobDir.resolve("pid-" + r);
      Await.until(
          pid + " (both jobs running side by side)",
          LIMIT,
          () -> {
            JobStatusInfo status = client.getJobStatus(id);
            if (TestJobs.isFinal(status.state)) {
              Path stderr = jobDir.resolve("stderr.txt");
              throw new AssertionError(
                  id
                      + " ended "
                      + status.state
                      + ": "
                      + status.failureReason
                      + "\n"
                      + (Files.exists(stderr) ? Files.readString(stderr) : "")
                      + "\n"
                      + server.log());
            }
            return Files.exists(pid);
          });
    }
  }

  private static void assertSucceeded(JobManagement client, String id) throws Exception {
    JobStatusInfo end = TestJobs.awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, () -> id + ": " + end.failureReason);
  }

  private static void assertRanAs(Path jobDir, String account) throws Exception {
    List<String> seen = new ArrayList<>();
    for (int r = 0; r < RANKS; r++) {
      seen.add(Files.readString(jobDir.resolve("who-" + r + ".txt")).strip());
    }
    assertEquals(
        List.of("n1 " + account, "n2 " + account),
        seen.stream().sorted().toList(),
        "one rank on each host, as the job's own account");
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
