package io.gantry.dispatcher;

import static io.gantry.dispatcher.ProcessProbe.read;
import static io.gantry.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs of two users, each under its own OS account, attack each other and the host from inside
 * their sandboxes. Each test fails if its attack works again. The attacker is given every host path
 * and pid it could want: these tests do not rely on paths being secret.
 */
class SandboxAttackTest {
  private static final JobAccount ALICE = TestAccounts.account(TestAccounts.ALICE);
  private static final JobAccount BOB = TestAccounts.account(TestAccounts.BOB);
  private static final DispatcherConfig CONFIG =
      DispatcherConfig.defaults()
          .withOversubscribe(true)
          .withKillGracePeriod(Duration.ofSeconds(1));

  @TempDir Path root;
  private Path aliceDir;
  private Path bobDir;
  private Path serverData;
  private final PosixLauncher posix = new PosixLauncher(CONFIG);
  private final LocalMpirunLauncher mpi = new LocalMpirunLauncher(CONFIG);
  private final List<RunningJob> started = new ArrayList<>();

  @BeforeEach
  void twoJobDirectoriesAndAServersDataDirectory() throws Exception {
    aliceDir = TestAccounts.jobDirectoryOf(ALICE, Files.createDirectory(root.resolve("alice-job")));
    bobDir = TestAccounts.jobDirectoryOf(BOB, Files.createDirectory(root.resolve("bob-job")));
    // world-readable on purpose: only the sandbox, not file modes, keeps jobs out of it here
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    serverData = Files.createDirectory(root.resolve("server-data"));
    Files.writeString(serverData.resolve("keystore.password"), "server-secret-keystore-password");
    Files.setPosixFilePermissions(serverData, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(
        serverData.resolve("keystore.password"), PosixFilePermissions.fromString("rw-r--r--"));
  }

  @AfterEach
  void stopEverything() throws Exception {
    for (RunningJob job : started) {
      job.terminate(Duration.ZERO);
      job.onExit().get(30, TimeUnit.SECONDS);
    }
    posix.close();
    mpi.close();
  }

  private RunningJob start(Launcher launcher, LaunchSpec spec) throws Exception {
    RunningJob job = launcher.launch(spec);
    started.add(job);
    return job;
  }

  private static LaunchSpec.Builder shell(
      JobAccount account, Path dir, String script, String... args) {
    List<String> argv = new ArrayList<>(List.of("-c", script, "attack"));
    argv.addAll(List.of(args));
    return LaunchSpec.builder(
            account.name() + "-" + System.nanoTime(), ProgramKind.POSIX, "/bin/sh")
        .arguments(argv.toArray(String[]::new))
        .workingDirectory(dir)
        .account(account)
        .output(dir.resolve("stdout.txt"), dir.resolve("stderr.txt"));
  }

  /**
   * The host pid of a process of the job running {@code program}, as an attacker would look it up.
   */
  private static long hostPidOf(RunningJob job, String program) {
    ProcessHandle root = ProcessHandle.of(job.pid()).orElseThrow();
    until(
        program + " to run",
        Duration.ofSeconds(20),
        () ->
            root.descendants()
                .anyMatch(p -> p.info().command().map(c -> c.endsWith(program)).orElse(false)));
    return root.descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith(program)).orElse(false))
        .findFirst()
        .orElseThrow()
        .pid();
  }

  @Test
  void aJobCannotSeeReadOrReplaceAnotherUsersRunningJobOrItsEnvironment() throws Exception {
    String secret = "alice-secret-" + System.nanoTime();
    Files.writeString(aliceDir.resolve("staged.csv"), "price\n100\n");
    RunningJob alice =
        start(
            posix,
            shell(ALICE, aliceDir, "echo \"$RISK_SECRET\" > secret.txt; exec sleep 60")
                .environment("RISK_SECRET", secret)
                .build());
    until(
        "alice's job to write its secret",
        Duration.ofSeconds(20),
        () -> read(aliceDir.resolve("secret.txt")).contains(secret));
    long alicePid = hostPidOf(alice, "sleep");

    RunningJob bob =
        start(
            posix,
            shell(
                    BOB,
                    bobDir,
                    String.join(
                        "\n",
                        "id -u",
                        "for f in \"$1/secret.txt\" \"$1/staged.csv\" /proc/$2/environ /proc/$2/cmdline; do cat \"$f\" 2>/dev/null && echo \"LEAK read $f\"; done",
                        "ls \"$1\" 2>/dev/null && echo LEAK listed",
                        "test -e \"$1\" && echo LEAK visible",
                        "echo evil > \"$1/staged.csv\" 2>/dev/null && echo LEAK wrote",
                        "cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep RISK_SECRET && echo LEAK environ",
                        "kill -STOP $2 2>/dev/null && echo LEAK signalled",
                        "echo done"),
                    aliceDir.toString(),
                    Long.toString(alicePid))
                .build());
    JobOutcome outcome = bob.onExit().get(20, TimeUnit.SECONDS);

    String out = read(bobDir.resolve("stdout.txt"));
    assertTrue(
        outcome.succeeded() && out.endsWith("done\n"),
        outcome.describe() + ": " + out + read(bobDir.resolve("stderr.txt")));
    assertEquals(
        Integer.toString(BOB.uid()),
        out.lines().findFirst().orElseThrow(),
        "bob's job runs as bob");
    assertFalse(out.contains("LEAK") || out.contains(secret), out);
    assertEquals("price\n100\n", Files.readString(aliceDir.resolve("staged.csv")));
    assertTrue(ProcessHandle.of(alicePid).orElseThrow().isAlive());
  }

  @Test
  void aJobSeesNeitherTheServersFilesNorAFinishedJobsDirectory() throws Exception {
    Files.writeString(aliceDir.resolve("results.csv"), "var\n42\n");
    JobOutcome outcome =
        start(
                posix,
                shell(
                        BOB,
                        bobDir,
                        String.join(
                            "\n",
                            "for f in \"$1/keystore.password\" \"$2/results.csv\"; do cat \"$f\" 2>/dev/null && echo \"LEAK $f\"; done",
                            "ls \"$1\" \"$3\" 2>/dev/null && echo LEAK listed",
                            "ls / | tr '\\n' ' '; echo",
                            "echo done"),
                        serverData.toString(),
                        aliceDir.toString(),
                        root.toString())
                    .build())
            .onExit()
            .get(20, TimeUnit.SECONDS);
    String out = read(bobDir.resolve("stdout.txt"));
    assertTrue(outcome.succeeded() && out.endsWith("done\n"), outcome.describe() + ": " + out);
    assertFalse(out.contains("LEAK") || out.contains("server-secret") || out.contains("42"), out);
    // the sandbox's whole root: the system (with the host's top-level links into /usr that exist
    // here, e.g. lib32 where 32-bit libraries are installed), the job directory, nothing of the
    // host's own
    java.util.TreeSet<String> root =
        new java.util.TreeSet<>(
            List.of("bin", "dev", "etc", "job", "proc", "sbin", "sys", "tmp", "usr"));
    for (String link : List.of("lib", "lib32", "lib64", "libx32")) {
      if (Files.exists(Path.of("/", link), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        root.add(link);
      }
    }
    assertEquals(String.join(" ", root) + " ", out.lines().toList().get(0));
  }

  @Test
  void aJobHasNoCapabilitiesNoNewPrivilegesAndReadOnlySystemDirectories() throws Exception {
    JobOutcome outcome =
        start(
                posix,
                shell(
                        ALICE,
                        aliceDir,
                        String.join(
                            "\n",
                            "grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status | tr -s '\\t ' ' '",
                            "touch /usr/pwned /etc/pwned 2>/dev/null && echo LEAK wrote-system",
                            "ls /proc | grep -c '^[0-9]'",
                            "echo done"))
                    .build())
            .onExit()
            .get(20, TimeUnit.SECONDS);
    String out = read(aliceDir.resolve("stdout.txt"));
    assertTrue(outcome.succeeded(), outcome.describe() + out);
    assertTrue(
        out.contains("CapEff: 0000000000000000")
            && out.contains("CapPrm: 0000000000000000")
            && out.contains("CapBnd: 0000000000000000")
            && out.contains("CapAmb: 0000000000000000")
            && out.contains("NoNewPrivs: 1"),
        out);
    assertFalse(out.contains("LEAK"), out);
    int processes = Integer.parseInt(out.lines().toList().get(5).strip());
    assertTrue(processes <= 4, "only the sandbox's own processes are visible: " + out);
  }

  @Test
  void twoUsersJobsSideBySideRunUnderDistinctAccountsWithPrivateTmp() throws Exception {
    String script =
        String.join(
            "\n",
            "id -u > uid.txt; echo mine > /tmp/mark-$(id -u); sleep 2",
            "ls /tmp | tr '\\n' ' ' > tmp.txt",
            "cat \"$1/uid.txt\" 2>/dev/null && echo LEAK > leak.txt; true");
    RunningJob a = start(posix, shell(ALICE, aliceDir, script, bobDir.toString()).build());
    RunningJob b =
        start(
            mpi,
            LaunchSpec.builder("bob-mpi", ProgramKind.MPI, "/bin/sh")
                .arguments("-c", script, "attack", aliceDir.toString())
                .processes(2)
                .workingDirectory(bobDir)
                .account(BOB)
                .output(bobDir.resolve("stdout.txt"), bobDir.resolve("stderr.txt"))
                .build());
    assertTrue(a.onExit().get(30, TimeUnit.SECONDS).succeeded());
    assertTrue(
        b.onExit().get(30, TimeUnit.SECONDS).succeeded(), read(bobDir.resolve("stderr.txt")));
    assertEquals(Integer.toString(ALICE.uid()), read(aliceDir.resolve("uid.txt")).strip());
    assertEquals(Integer.toString(BOB.uid()), read(bobDir.resolve("uid.txt")).strip());
    assertNotEquals(ALICE.uid(), BOB.uid());
    assertEquals(
        "mark-" + ALICE.uid() + " ", read(aliceDir.resolve("tmp.txt")).replaceAll("ompi\\S* ", ""));
    assertFalse(
        read(bobDir.resolve("tmp.txt")).contains("mark-" + ALICE.uid()), "bob sees alice's /tmp");
    assertFalse(
        Files.exists(aliceDir.resolve("leak.txt")) || Files.exists(bobDir.resolve("leak.txt")));
  }

  @Test
  void aStagedOpenMpiParameterFileInTheJobsHomeHasNoEffect() throws Exception {
    // $HOME is the job directory; Open MPI would read $HOME/.openmpi/mca-params.conf by default
    Path params = Files.createDirectories(aliceDir.resolve(".openmpi")).resolve("mca-params.conf");
    Files.writeString(params, "orte_tag_output = 1\n");
    JobOutcome outcome =
        start(
                mpi,
                LaunchSpec.builder("mca", ProgramKind.MPI, "/bin/echo")
                    .arguments("hi")
                    .workingDirectory(aliceDir)
                    .account(ALICE)
                    .output(aliceDir.resolve("stdout.txt"), aliceDir.resolve("stderr.txt"))
                    .build())
            .onExit()
            .get(30, TimeUnit.SECONDS);
    assertTrue(outcome.succeeded(), outcome.describe() + read(aliceDir.resolve("stderr.txt")));
    assertEquals(
        "hi\n", read(aliceDir.resolve("stdout.txt")), "the job's own MCA file tagged the output");
  }
}
