package io.gantry.dispatcher;

import static io.gantry.dispatcher.ProcessProbe.commandLine;
import static io.gantry.dispatcher.ProcessProbe.read;
import static io.gantry.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real Open MPI mpirun on tiny programs. */
class LocalMpirunLauncherTest {
  private static final Duration GENEROUS = Duration.ofSeconds(20);
  private static final DispatcherConfig CONFIG =
      DispatcherConfig.defaults()
          .withOversubscribe(true)
          .withKillGracePeriod(Duration.ofSeconds(1));

  private static final JobAccount ACCOUNT = TestAccounts.account(TestAccounts.ALICE);

  @TempDir Path jobDir;
  private final LocalMpirunLauncher launcher = new LocalMpirunLauncher(CONFIG);
  private RunningJob started;

  @org.junit.jupiter.api.BeforeEach
  void giveTheDirectoryToTheJobsAccount() {
    TestAccounts.jobDirectoryOf(ACCOUNT, jobDir);
  }

  @AfterEach
  void stopLeftovers() throws Exception {
    if (started != null) {
      started.terminate(Duration.ZERO);
      started.onExit().get(30, TimeUnit.SECONDS);
    }
    launcher.close();
  }

  private LaunchSpec.Builder job(String executable, String... args) {
    return LaunchSpec.builder("job-" + System.nanoTime(), ProgramKind.MPI, executable)
        .arguments(args)
        .workingDirectory(jobDir)
        .jobDirectory(jobDir)
        .account(ACCOUNT)
        .output(jobDir.resolve("stdout.txt"), jobDir.resolve("stderr.txt"));
  }

  private JobOutcome run(LaunchSpec spec) throws Exception {
    started = launcher.launch(spec);
    return started.onExit().get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void aProgramThatExitsZeroSucceeds() throws Exception {
    JobOutcome outcome = run(job("/bin/true").build());
    assertTrue(outcome.succeeded(), outcome.describe());
    assertEquals(0, outcome.exitCode().getAsInt());
    assertFalse(outcome.endedAt().isBefore(outcome.startedAt()));
  }

  @Test
  void aNonZeroExitCodeIsRecorded() throws Exception {
    JobOutcome outcome = run(job("/bin/sh", "-c", "exit 3").build());
    assertFalse(outcome.succeeded());
    assertEquals(3, outcome.exitCode().getAsInt(), outcome.describe());
  }

  @Test
  void standardOutputAndErrorLandInTheJobsFiles() throws Exception {
    run(job("/bin/sh", "-c", "echo to-out; echo to-err >&2").build());
    assertEquals("to-out\n", read(jobDir.resolve("stdout.txt")));
    assertTrue(read(jobDir.resolve("stderr.txt")).contains("to-err"));
    assertFalse(read(jobDir.resolve("stdout.txt")).contains("to-err"));
  }

  @Test
  void twoRanksRunWhenTwoProcessesAreAsked() throws Exception {
    JobOutcome outcome =
        run(job("/bin/sh", "-c", "echo rank=$OMPI_COMM_WORLD_RANK").processes(2).build());
    assertTrue(outcome.succeeded(), outcome.describe() + read(jobDir.resolve("stderr.txt")));
    String out = read(jobDir.resolve("stdout.txt"));
    assertTrue(out.contains("rank=0") && out.contains("rank=1"), out);
  }

  @Test
  void aHostFileAndAllowedJobOptionsReachMpirun() throws Exception {
    java.nio.file.Path hosts = jobDir.resolve("hosts");
    java.nio.file.Files.writeString(hosts, "localhost slots=2\n");
    JobOutcome outcome =
        run(
            job("/bin/echo", "hi")
                .processes(2)
                .hostFile(hosts)
                .extraMpirunOptions("--tag-output", "--bind-to", "none")
                .build());
    assertTrue(outcome.succeeded(), outcome.describe() + read(jobDir.resolve("stderr.txt")));
    String out = read(jobDir.resolve("stdout.txt"));
    assertTrue(out.contains("[1,0]<stdout>:hi") && out.contains("[1,1]<stdout>:hi"), out);
  }

  @Test
  void argumentsWithShellCharactersReachTheProgramVerbatim() throws Exception {
    run(job("/bin/echo", "a b", "$HOME", "; touch pwned", "`id`").build());
    assertEquals("a b $HOME ; touch pwned `id`\n", read(jobDir.resolve("stdout.txt")));
    assertFalse(jobDir.resolve("pwned").toFile().exists());
  }

  @Test
  void environmentValuesReachTheRanksButNoCommandLine() throws Exception {
    String secret = "value-" + System.nanoTime();
    LaunchSpec spec =
        job("/bin/sh", "-c", "echo $RISK_TEST_VAR; sleep 30")
            .environment("RISK_TEST_VAR", secret)
            .build();
    started = launcher.launch(spec);
    until(
        "the rank to print the variable",
        GENEROUS,
        () -> read(jobDir.resolve("stdout.txt")).contains(secret));

    ProcessHandle sandbox = ProcessHandle.of(started.pid()).orElseThrow();
    until("the rank to start its sleep", GENEROUS, () -> sandbox.descendants().count() >= 4);
    // the process is bwrap itself with exactly our argument array: no shell in between ...
    List<String> argv = launcher.commandLine(spec);
    assertEquals(argv, commandLine(sandbox));
    // ... and inside it mpirun, started by setpriv with the sandbox's paths
    List<String> mpirunArgv = argv.subList(argv.lastIndexOf("--") + 1, argv.size());
    assertEquals(CONFIG.mpirun(), mpirunArgv.get(0));
    assertTrue(mpirunArgv.containsAll(List.of("--wdir", "/job")), mpirunArgv.toString());
    assertTrue(
        sandbox.descendants().anyMatch(p -> commandLine(p).equals(mpirunArgv)),
        "mpirun runs as " + mpirunArgv);
    List<ProcessHandle> tree = new java.util.ArrayList<>(sandbox.descendants().toList());
    tree.add(sandbox);
    assertTrue(
        tree.size() >= 5, "bwrap, its init, mpirun, the shell rank and its sleep: " + tree.size());
    for (ProcessHandle p : tree) {
      assertFalse(String.join(" ", commandLine(p)).contains(secret), "visible in pid " + p.pid());
    }
  }

  @Test
  void exceedingTheWallTimeKillsTheWholeTree() throws Exception {
    started =
        launcher.launch(
            job("/bin/sh", "-c", "sleep 60; echo late")
                .wallTimeLimit(Duration.ofSeconds(4))
                .build());
    ProcessHandle mpirun = ProcessHandle.of(started.pid()).orElseThrow();
    until("the rank and its sleep to start", GENEROUS, () -> mpirun.descendants().count() >= 4);
    List<ProcessHandle> tree = mpirun.descendants().toList();

    JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
    assertTrue(outcome.wallTimeExceeded(), outcome.describe());
    assertFalse(outcome.killed());
    assertFalse(outcome.succeeded());
    assertTrue(
        outcome.runTime().compareTo(Duration.ofSeconds(4)) >= 0, outcome.runTime().toString());
    for (ProcessHandle p : tree) {
      assertFalse(p.isAlive(), "orphan left running: " + commandLine(p));
    }
    assertEquals("", read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void killingARunningJobStopsRanksThatIgnoreSigterm() throws Exception {
    started = launcher.launch(job("/bin/sh", "-c", "trap '' TERM; sleep 60").processes(2).build());
    ProcessHandle mpirun = ProcessHandle.of(started.pid()).orElseThrow();
    until("both ranks and their sleeps", GENEROUS, () -> mpirun.descendants().count() >= 6);
    List<ProcessHandle> tree = mpirun.descendants().toList();

    started.terminate(Duration.ofSeconds(1));
    JobOutcome outcome = started.onExit().get(10, TimeUnit.SECONDS);
    assertTrue(outcome.killed(), outcome.describe());
    assertFalse(outcome.wallTimeExceeded());
    for (ProcessHandle p : tree) {
      assertFalse(p.isAlive(), "left running: " + commandLine(p));
    }
  }

  @Test
  void aMissingExecutableIsReportedBeforeAnythingStarts() {
    LaunchException e =
        assertThrows(
            LaunchException.class, () -> launcher.launch(job("/usr/bin/no-such-mcvar").build()));
    assertTrue(
        e.getMessage().contains("/usr/bin/no-such-mcvar")
            && e.getMessage().contains("does not exist"),
        e.getMessage());
  }

  @Test
  void anExecutableOutsideWhatTheSandboxShowsIsRefusedBeforeAnythingStarts() {
    LaunchException e =
        assertThrows(
            LaunchException.class, () -> launcher.launch(job("/opt/risk/bin/mcvar").build()));
    assertTrue(
        e.getMessage().contains("/opt/risk/bin/mcvar") && e.getMessage().contains("outside"),
        e.getMessage());
  }

  @Test
  void aJobWithoutAnOsAccountIsNeverStarted() {
    LaunchSpec spec =
        LaunchSpec.builder("j", ProgramKind.MPI, "/bin/true")
            .workingDirectory(jobDir)
            .output(jobDir.resolve("o"), jobDir.resolve("e"))
            .build();
    LaunchException e = assertThrows(LaunchException.class, () -> launcher.launch(spec));
    assertTrue(e.getMessage().contains("OS account"), e.getMessage());
  }

  @Test
  void aMissingWorkingDirectoryIsReportedBeforeAnythingStarts() {
    LaunchSpec spec = job("/bin/true").workingDirectory(jobDir.resolve("absent")).build();
    LaunchException e = assertThrows(LaunchException.class, () -> launcher.launch(spec));
    assertTrue(e.getMessage().contains("working directory"), e.getMessage());
  }

  @Test
  void aPosixSpecIsNotRunThroughMpirun() {
    LaunchSpec spec =
        LaunchSpec.builder("j", ProgramKind.POSIX, "/bin/true")
            .workingDirectory(jobDir)
            .output(jobDir.resolve("o"), jobDir.resolve("e"))
            .build();
    assertThrows(IllegalArgumentException.class, () -> launcher.launch(spec));
  }
}
