package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.OsAccounts;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two users of a real gantry-server (TLS, accounts, the demo's data source and SSH host, so every
 * secret a server keeps is on disk) whose jobs run side by side under their own OS accounts and
 * attack each other and the server. The attacker's job is handed every host path it could want
 * (data directory, job directories, a victim's pid): isolation must not rest on secret paths. Each
 * test fails if its attack works again. One server serves every test: each test's jobs are its own.
 */
class JobIsolationAttackTest {
  private static final String ALICE_OS = "gantry-test-alice";
  private static final String BOB_OS = "gantry-test-bob";
  private static final String PASSWORD = "a long enough password";
  private static final Duration LIMIT = Duration.ofSeconds(90);

  @TempDir static Path dir;
  private static Path dataDir;
  private static GantryTestServer server;
  private static JobManagement alice;
  private static JobManagement bob;

  @BeforeAll
  static void startAServerWithTwoUsersOnDistinctAccounts() throws Exception {
    dataDir = dir.resolve("server");
    server =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .secure()
            .demo(20)
            .account(new TestAccount("alice", PASSWORD, false, ALICE_OS))
            .account(new TestAccount("bob", PASSWORD, false, BOB_OS))
            .start();
    alice = JobManagementClients.of(server, new Login.Basic("alice", PASSWORD));
    bob = JobManagementClients.of(server, new Login.Basic("bob", PASSWORD));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** A POSIX job {@code /bin/sh -c script attack args...} with one secret in its environment. */
  private static String shellJob(String name, String secret, String script, String... args) {
    StringBuilder app =
        new StringBuilder("<posix:POSIXApplication><posix:Executable>/bin/sh</posix:Executable>")
            .append("<posix:Argument>-c</posix:Argument><posix:Argument>")
            .append(escape(script))
            .append("</posix:Argument><posix:Argument>attack</posix:Argument>");
    for (String a : args) {
      app.append("<posix:Argument>").append(escape(a)).append("</posix:Argument>");
    }
    app.append("<posix:Output>stdout.txt</posix:Output><posix:Error>stderr.txt</posix:Error>")
        .append("<posix:Environment name=\"RISK_SECRET\">")
        .append(secret)
        .append("</posix:Environment>")
        .append("<posix:WallTimeLimit>60</posix:WallTimeLimit></posix:POSIXApplication>");
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\" xmlns:gx=\"urn:gantry:jsdl:ext:1\">"
        + "<jsdl:JobDescription><jsdl:JobIdentification><jsdl:JobName>"
        + name
        + "</jsdl:JobName></jsdl:JobIdentification><jsdl:Application>"
        + app
        + "</jsdl:Application>"
        + "<gx:PreDataStaging><gx:SQLQueryDataStaging><gx:DataSourceRef>demo-market</gx:DataSourceRef>"
        + "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>"
        + "<gx:SQLStatement>SELECT 'staged-for-"
        + name
        + "' AS v</gx:SQLStatement>"
        + "<gx:SQLOutputFileName>staged.csv</gx:SQLOutputFileName></gx:SQLQueryDataStaging></gx:PreDataStaging>"
        + "</jsdl:JobDescription></jsdl:JobDefinition>";
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static Path jobDirectory(String jobId) {
    return dataDir.resolve("jobs").resolve(jobId);
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
  }

  /** Everything secret the server keeps in its data directory, as text to look for in output. */
  @SuppressWarnings("StreamResourceLeak") // the concatenated stream closes both walks
  private static List<String> serverSecrets() throws IOException {
    List<String> secrets = new ArrayList<>();
    secrets.add(Files.readString(dataDir.resolve("tls/keystore.password")).strip());
    try (Stream<Path> files =
        Stream.concat(Files.walk(dataDir.resolve("keys")), Files.walk(dataDir.resolve("demo")))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String text = read(f);
        if (text.contains("PRIVATE KEY")) {
          secrets.add(text.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow());
        }
      }
    }
    secrets.add("PRIVATE KEY");
    secrets.add("pbkdf2"); // the job store's password hashes
    return secrets;
  }

  private static void awaitFile(Path file, String content) {
    Await.fileContaining(file, content, LIMIT);
  }

  @Test
  void usersJobsSideBySideCannotReachEachOtherOrAnythingOfTheServer() throws Exception {
    String finishedSecret = "alice-finished-" + System.nanoTime();
    String runningSecret = "alice-running-" + System.nanoTime();
    String bobSecret = "bob-" + System.nanoTime();

    // alice: one finished job, one running while bob attacks (until the test lets it go, once bob's
    // job has ended); she attacks bob's directories too
    String finished =
        alice.submitJob(
            TestJobs.documentOf(
                shellJob(
                    "alice-finished",
                    finishedSecret,
                    "echo \"$RISK_SECRET\" > secret.txt; echo \"$RISK_SECRET\"")));
    assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(alice, finished, LIMIT).state);
    String running =
        alice.submitJob(
            TestJobs.documentOf(
                shellJob(
                    "alice-running",
                    runningSecret,
                    String.join(
                        "; ",
                        "id -u; echo \"$RISK_SECRET\" > secret.txt; sleep 300 &"
                            + " while [ ! -e go ]; do sleep 0.1; done; kill $!",
                        "cat \"$1\"/*/secret.txt \"$1\"/*/stdout.txt 2>/dev/null | grep -q bob- && echo LEAK-bob",
                        "cat staged.csv"),
                    dataDir.resolve("jobs").toString())));
    awaitFile(jobDirectory(running).resolve("secret.txt"), runningSecret);
    long alicePid = pidOf(ALICE_OS, "sleep 300");

    // one line: JSDL arguments are normalized strings, line breaks become spaces
    String attack =
        String.join(
            "; ",
            "id -u",
            "D=$1; J=$2; F=$3; R=$4; P=$5",
            "for f in $F/secret.txt $F/stdout.txt $F/staged.csv $R/secret.txt $R/staged.csv /proc/$P/environ"
                + " $D/tls/keystore.password $D/keys/* $D/demo/demo-remote-id $D/jobstore/*; do"
                + " cat \"$f\" 2>/dev/null && echo \"LEAK read $f\"; done",
            "ls $D $J $F $R 2>/dev/null && echo LEAK listed",
            "echo evil > $R/staged.csv 2>/dev/null && echo LEAK replaced",
            "cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep alice- && echo LEAK environ",
            "kill -STOP $P 2>/dev/null && echo LEAK signalled",
            "echo \"$RISK_SECRET\" > secret.txt",
            "echo done");
    String bobJob =
        bob.submitJob(
            TestJobs.documentOf(
                shellJob(
                    "bob-attack",
                    bobSecret,
                    attack,
                    dataDir.toString(),
                    dataDir.resolve("jobs").toString(),
                    jobDirectory(finished).toString(),
                    jobDirectory(running).toString(),
                    Long.toString(alicePid))));
    JobStatusInfo bobStatus = TestJobs.awaitFinal(bob, bobJob, LIMIT);
    Files.writeString(jobDirectory(running).resolve("go"), "");
    JobStatusInfo aliceStatus = TestJobs.awaitFinal(alice, running, LIMIT);

    String bobOut = read(jobDirectory(bobJob).resolve("stdout.txt"));
    String aliceOut = read(jobDirectory(running).resolve("stdout.txt"));
    assertEquals(JobStateName.SUCCEEDED, bobStatus.state, bobStatus.failureReason + bobOut);
    assertEquals(JobStateName.SUCCEEDED, aliceStatus.state, aliceStatus.failureReason + aliceOut);
    assertTrue(bobOut.endsWith("done\n"), bobOut);

    JobAccount aliceOs = OsAccounts.lookup(ALICE_OS);
    JobAccount bobOs = OsAccounts.lookup(BOB_OS);
    assertEquals(
        Integer.toString(bobOs.uid()),
        bobOut.lines().findFirst().orElseThrow(),
        "bob's job runs as bob's account");
    assertEquals(
        Integer.toString(aliceOs.uid()),
        aliceOut.lines().findFirst().orElseThrow(),
        "alice's as alice's");

    for (String leaked : List.of("LEAK", finishedSecret, runningSecret)) {
      assertFalse(bobOut.contains(leaked), "bob's job got " + leaked + ":\n" + bobOut);
    }
    for (String secret : serverSecrets()) {
      assertFalse(bobOut.contains(secret), "bob's job read a server secret:\n" + bobOut);
    }
    assertFalse(aliceOut.contains("LEAK") || aliceOut.contains(bobSecret), aliceOut);
    assertTrue(
        aliceOut.endsWith("v\nstaged-for-alice-running\n"),
        "alice's staged input was replaced: " + aliceOut);
  }

  @Test
  void jobDirectoriesBelongToTheJobsAccountAndNobodyElseMayEnterThem() throws Exception {
    String id = alice.submitJob(TestJobs.documentOf(shellJob("alice", "s", "ls -ln staged.csv")));
    assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(alice, id, LIMIT).state);
    JobAccount aliceOs = OsAccounts.lookup(ALICE_OS);
    Path jobDir = jobDirectory(id);
    assertEquals(aliceOs.uid(), Files.getAttribute(jobDir, "unix:uid", LinkOption.NOFOLLOW_LINKS));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(jobDir)));
    // the file the server staged in was handed to alice's account before her program started
    assertTrue(
        read(jobDir.resolve("stdout.txt")).contains(" " + aliceOs.uid() + " "),
        read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void variablesThatSteerTheLoaderOrOpenMpiAreRefusedAtValidationWithTheirLineAndColumn()
      throws Exception {
    int bobsJobs = bob.listJobs(null, 0, 100, false).jobs.size();
    for (String name :
        List.of(
            "LD_PRELOAD", "PATH", "HOME", "OMPI_MCA_plm_rsh_agent", "PMIX_MCA_x", "GCONV_PATH")) {
      String xml =
          shellJob("evil", "x", "true").replace("name=\"RISK_SECRET\"", "name=\"" + name + "\"");
      ValidationResult result = bob.validateJob(TestJobs.documentOf(xml));
      assertFalse(result.valid, name);
      Problem problem =
          result.problems.stream()
              .filter(p -> p.message.contains(name))
              .findFirst()
              .orElseThrow(() -> new AssertionError(name + " not refused: " + result.problems));
      // one line here; the mpirun test below pins exact positions on a later line
      assertTrue(
          problem.line == 1 && problem.column > 1,
          name + ": " + problem.line + ":" + problem.column);
      assertTrue(problem.path.endsWith("POSIXApplication/Environment"), problem.path);
      InvalidJobFault fault =
          assertThrows(InvalidJobFault.class, () -> bob.submitJob(TestJobs.documentOf(xml)));
      assertTrue(
          fault.getFaultInfo().problems.stream().anyMatch(p -> p.message.contains(name)), name);
    }
    assertEquals(bobsJobs, bob.listJobs(null, 0, 100, false).jobs.size(), "nothing was queued");
  }

  @Test
  void mpirunOptionsOutsideThePolicyAreRefusedAtValidationNotAtLaunch() throws Exception {
    String xml =
        "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
            + " xmlns:gx=\"urn:gantry:jsdl:ext:1\">\n<jsdl:JobDescription><jsdl:Application><gx:MpirunApplication>\n"
            + "<gx:Executable>/bin/true</gx:Executable><gx:NumberOfProcesses>1</gx:NumberOfProcesses>\n"
            + "  <gx:MpirunOption>--mca</gx:MpirunOption><gx:MpirunOption>plm_rsh_agent</gx:MpirunOption>"
            + "<gx:MpirunOption>/job/evil</gx:MpirunOption>\n"
            + "</gx:MpirunApplication></jsdl:Application></jsdl:JobDescription></jsdl:JobDefinition>";
    ValidationResult result = bob.validateJob(TestJobs.documentOf(xml));
    assertFalse(result.valid);
    Problem problem = result.problems.get(0);
    // positions refer to the JobDefinition as the server re-serialises it from the SOAP body
    assertTrue(problem.line >= 1 && problem.column > 1, problem.line + ":" + problem.column);
    assertTrue(problem.path.endsWith("MpirunApplication/MpirunOption[2]"), problem.path);
    assertTrue(problem.message.contains("plm_rsh_agent"), problem.message);
    assertThrows(InvalidJobFault.class, () -> bob.submitJob(TestJobs.documentOf(xml)));
  }

  @Test
  void anExecutableTheSandboxDoesNotShowIsRefusedBeforeQueueing() throws Exception {
    String xml =
        shellJob("elsewhere", "x", "true")
            .replace(
                "<posix:Executable>/bin/sh</posix:Executable>",
                "<posix:Executable>" + dataDir + "/keys/run</posix:Executable>");
    ValidationResult result = bob.validateJob(TestJobs.documentOf(xml));
    assertFalse(result.valid);
    assertTrue(
        result.problems.stream()
            .anyMatch(
                p ->
                    p.message.contains("outside what a job's sandbox shows")
                        && p.message.contains("jobs.allowed-executable-roots")),
        result.problems.get(0).message);
  }

  /**
   * The host pid of the process with {@code commandLine} (arguments joined by spaces) running under
   * {@code account}, as a local attacker finds it in /proc.
   */
  private static long pidOf(String account, String commandLine) throws Exception {
    int uid = OsAccounts.lookup(account).uid();
    return Await.value(
            commandLine + " to run as " + account,
            LIMIT,
            () -> findPid(uid, commandLine),
            OptionalLong::isPresent)
        .getAsLong();
  }

  private static OptionalLong findPid(int uid, String commandLine) throws IOException {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String arguments =
              new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
          if (arguments.replace('\0', ' ').strip().equals(commandLine)
              && ((Integer) Files.getAttribute(proc, "unix:uid")) == uid) {
            return OptionalLong.of(Long.parseLong(proc.getFileName().toString()));
          }
        } catch (IOException gone) {
          // ended meanwhile
        }
      }
    }
    return OptionalLong.empty();
  }
}
