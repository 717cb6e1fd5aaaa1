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

/** Plain POSIX jobs: one process, same supervision as MPI jobs. */
class PosixLauncherTest {
  private static final DispatcherConfig CONFIG = DispatcherConfig.defaults();

  private static final JobAccount ACCOUNT = TestAccounts.account(TestAccounts.ALICE);

  @TempDir Path jobDir;
  private final PosixLauncher launcher = new PosixLauncher(CONFIG);
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
    return LaunchSpec.builder("posix-" + System.nanoTime(), ProgramKind.POSIX, executable)
        .arguments(args)
        .workingDirectory(jobDir)
        .account(ACCOUNT)
        .output(jobDir.resolve("stdout.txt"), jobDir.resolve("stderr.txt"));
  }

  private JobOutcome run(LaunchSpec spec) throws Exception {
    started = launcher.launch(spec);
    return started.onExit().get(20, TimeUnit.SECONDS);
  }

  @Test
  void theProgramRunsInItsSandboxedWorkingDirectoryWithOnlyItsEnvironment() throws Exception {
    JobOutcome outcome =
        run(
            job("/bin/sh", "-c", "pwd; echo \"[$X] $HOME $(id -u)\"; env | grep -c . >&2; exit 4")
                .environment("X", "y")
                .build());
    assertEquals(4, outcome.exitCode().getAsInt(), outcome.describe());
    assertEquals("/job\n[y] /job " + ACCOUNT.uid() + "\n", read(jobDir.resolve("stdout.txt")));
    int variables = Integer.parseInt(read(jobDir.resolve("stderr.txt")).trim());
    // X, the sandbox's own (PATH, HOME, TMPDIR, USER, LOGNAME, 3 MCA file lists), the inherited
    // locale (2) and what sh adds (PWD, SHLVL, _)
    assertTrue(
        variables <= 1 + 8 + DispatcherConfig.DEFAULT_INHERITED_ENVIRONMENT.size() + 3,
        "server environment leaked: " + variables + " variables");
  }

  @Test
  void aBareProgramNameIsFoundOnTheSandboxsPath() throws Exception {
    JobOutcome outcome = run(job("echo", "hello").build());
    assertTrue(outcome.succeeded());
    assertEquals("hello\n", read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void theJobKnowsItsAccountByNameAndRunsProgramsFromAnAllowedExecutableRoot(
      @TempDir Path elsewhere) throws Exception {
    Path tools = java.nio.file.Files.createDirectories(elsewhere.resolve("opt/risk/bin"));
    Path hello =
        java.nio.file.Files.writeString(
            tools.resolve("hello-risk"), "#!/bin/sh\necho \"hello $(id -un)\"\n");
    java.nio.file.Files.setPosixFilePermissions(
        hello, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    java.nio.file.Files.setPosixFilePermissions(
        tools, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    try (PosixLauncher withTools =
        new PosixLauncher(
            CONFIG.withSandbox(SandboxConfig.defaults().withExecutableRoots(List.of(tools))))) {
      started = withTools.launch(job("hello-risk").build());
      JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
      assertTrue(outcome.succeeded(), outcome.describe() + read(jobDir.resolve("stderr.txt")));
    }
    assertEquals("hello " + ACCOUNT.name() + "\n", read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void aJobWithoutAnOsAccountIsNeverStarted() {
    LaunchSpec spec =
        LaunchSpec.builder("j", ProgramKind.POSIX, "/bin/true")
            .workingDirectory(jobDir)
            .output(jobDir.resolve("o"), jobDir.resolve("e"))
            .build();
    LaunchException e = assertThrows(LaunchException.class, () -> launcher.launch(spec));
    assertTrue(e.getMessage().contains("OS account"), e.getMessage());
  }

  @Test
  void standardOutputAndErrorMayShareOneFile() throws Exception {
    Path log = jobDir.resolve("job.log");
    run(job("/bin/sh", "-c", "echo one; echo two >&2; echo three").output(log, log).build());
    assertEquals("one\ntwo\nthree\n", read(log));
  }

  @Test
  void aChildThatIgnoresSigtermIsKilledAfterTheGracePeriod() throws Exception {
    started =
        launcher.launch(job("/bin/sh", "-c", "trap '' TERM; sleep 60; echo survived").build());
    ProcessHandle sandbox = ProcessHandle.of(started.pid()).orElseThrow();
    // bwrap, its init in the new PID namespace, the shell, its sleep
    until(
        "the shell to start its sleep",
        Duration.ofSeconds(10),
        () -> sandbox.descendants().count() >= 3);
    List<ProcessHandle> sleeps = sandbox.descendants().toList();

    long before = System.nanoTime();
    started.terminate(Duration.ofSeconds(1));
    JobOutcome outcome = started.onExit().get(10, TimeUnit.SECONDS);
    assertTrue(
        System.nanoTime() - before >= Duration.ofSeconds(1).toNanos(),
        "SIGTERM was ignored, so only SIGKILL after the grace period can have ended it");
    assertTrue(outcome.killed());
    assertEquals(9, outcome.terminatingSignal().getAsInt(), outcome.describe());
    sleeps.forEach(p -> assertFalse(p.isAlive(), "left running: " + commandLine(p)));
    assertEquals("", read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void processesAJobLeavesBehindAreStoppedWhenItEnds() throws Exception {
    // the shell backgrounds a sleep and exits; the sleep is re-parented to the sandbox's init
    started = launcher.launch(job("/bin/sh", "-c", "/bin/sleep 60 & sleep 2; exit 0").build());
    ProcessHandle root = ProcessHandle.of(started.pid()).orElseThrow();
    until(
        "the background sleep to start",
        Duration.ofSeconds(10),
        () -> root.descendants().anyMatch(p -> commandLine(p).equals(List.of("/bin/sleep", "60"))));
    ProcessHandle sleep =
        root.descendants()
            .filter(p -> commandLine(p).equals(List.of("/bin/sleep", "60")))
            .findFirst()
            .orElseThrow();
    JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
    assertTrue(outcome.succeeded(), outcome.describe());
    until("the left-behind sleep to be gone", Duration.ofSeconds(10), () -> !sleep.isAlive());
  }

  @Test
  void aProgramThatStopsOnSigtermEndsWithSignal15() throws Exception {
    started = launcher.launch(job("/bin/sleep", "60").build());
    started.terminate(Duration.ofSeconds(30));
    JobOutcome outcome = started.onExit().get(10, TimeUnit.SECONDS);
    assertEquals(15, outcome.terminatingSignal().getAsInt(), outcome.describe());
    assertTrue(outcome.killed());
  }

  @Test
  void wallTimeLimitStopsAPosixJob() throws Exception {
    JobOutcome outcome = run(job("/bin/sleep", "60").wallTimeLimit(Duration.ofMillis(500)).build());
    assertTrue(outcome.wallTimeExceeded(), outcome.describe());
  }

  @Test
  void closingTheLauncherKeepsSupervisingRunningJobs() throws Exception {
    started = launcher.launch(job("/bin/sleep", "60").wallTimeLimit(Duration.ofSeconds(1)).build());
    launcher.close();
    assertThrows(IllegalStateException.class, () -> launcher.launch(job("/bin/true").build()));
    JobOutcome outcome = started.onExit().get(10, TimeUnit.SECONDS);
    assertTrue(outcome.wallTimeExceeded(), outcome.describe());
  }

  @Test
  void exitStatus130CannotBeToldApartFromSigint() throws Exception {
    // Documented limitation of java.lang.Process: 128 + N is reported for signal N.
    JobOutcome outcome = run(job("/bin/sh", "-c", "exit 130").build());
    assertEquals(2, outcome.terminatingSignal().getAsInt());
    assertTrue(outcome.exitCode().isEmpty());
    assertTrue(outcome.describe().contains("or exit code 130"), outcome.describe());
  }

  @Test
  void terminatingAFinishedJobChangesNothing() throws Exception {
    JobOutcome outcome = run(job("/bin/true").build());
    started.terminate(Duration.ZERO);
    JobOutcome again = started.onExit().get(1, TimeUnit.SECONDS);
    assertEquals(outcome, again);
    assertTrue(again.succeeded());
  }

  @Test
  void aMissingProgramIsAClearLaunchError() {
    LaunchException e =
        assertThrows(
            LaunchException.class, () -> launcher.launch(job("no-such-program-gantry").build()));
    assertTrue(
        e.getMessage().contains("no-such-program-gantry") && e.getMessage().contains("not found"),
        e.getMessage());
    Path notExecutable = jobDir.resolve("stdout.txt");
    LaunchException e2 =
        assertThrows(LaunchException.class, () -> launcher.launch(job("./stdout.txt").build()));
    assertTrue(
        e2.getMessage().contains("not an executable") || e2.getMessage().contains("does not exist"),
        e2.getMessage() + notExecutable);
  }
}
