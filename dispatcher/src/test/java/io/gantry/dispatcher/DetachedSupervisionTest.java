package io.gantry.dispatcher;

import static io.gantry.dispatcher.ProcessProbe.read;
import static io.gantry.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * POSIX jobs under gantry-stepd (node-programs/stepd): the same sandbox and supervision as under
 * the server, and a job followed again by its reference after the launcher that started it is gone,
 * whether it still runs or ended meanwhile.
 */
class DetachedSupervisionTest {
  private static final Path STEPD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-stepd");
  private static final JobAccount ACCOUNT = TestAccounts.account(TestAccounts.ALICE);
  private static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir Path jobDir;
  @TempDir Path statusDir;
  private DetachedSupervision supervision;
  private PosixLauncher launcher;
  private RunningJob started;

  @BeforeEach
  void setUp() {
    assertTrue(Files.isExecutable(STEPD), "build the node programs first: " + STEPD);
    TestAccounts.jobDirectoryOf(ACCOUNT, jobDir);
    supervision = new DetachedSupervision(STEPD, statusDir.resolve("supervisor"));
    launcher =
        new PosixLauncher(
            DispatcherConfig.defaults()
                .withKillGracePeriod(Duration.ofSeconds(1))
                .withDetachedSupervision(supervision));
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

  @Test
  void theProgramRunsSandboxedUnderItsAccountAndItsExitCodeComesBack() throws Exception {
    started = launcher.launch(job("/bin/sh", "-c", "pwd; id -u; exit 4").build());
    assertTrue(started.outlivesServer());
    assertTrue(started.reattachReference().orElseThrow().startsWith("stepd:"));
    JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
    assertEquals(4, outcome.exitCode().getAsInt(), outcome.describe());
    assertEquals("/job\n" + ACCOUNT.uid() + "\n", read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void aKillRequestEndsAProgramThatIgnoresSigtermWithSigkillAfterTheGrace() throws Exception {
    started =
        launcher.launch(
            job("/bin/sh", "-c", "trap '' TERM; echo up > up; sleep 60; echo survived").build());
    until("the program to start", LIMIT, () -> Files.exists(jobDir.resolve("up")));
    started.terminate(Duration.ofSeconds(1));
    JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
    assertTrue(outcome.killed(), outcome.describe());
    assertEquals(9, outcome.stopSignal(), outcome.describe());
    assertEquals("", read(jobDir.resolve("stdout.txt")));
  }

  @Test
  void theWallTimeIsEnforcedByTheSupervisor() throws Exception {
    started =
        launcher.launch(job("/bin/sleep", "60").wallTimeLimit(Duration.ofMillis(500)).build());
    JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
    assertTrue(outcome.wallTimeExceeded(), outcome.describe());
    assertTrue(read(jobDir.resolve("stderr.txt")).contains("wall-time limit"));
  }

  @Test
  void aJobIsFollowedAgainAfterItsLauncherIsGone() throws Exception {
    LaunchSpec spec =
        job("/bin/sh", "-c", "echo up > up; while [ ! -e release ]; do sleep 0.1; done; exit 5")
            .build();
    RunningJob first = launcher.launch(spec);
    String reference = first.reattachReference().orElseThrow();
    until("the program to start", LIMIT, () -> Files.exists(jobDir.resolve("up")));
    launcher.close(); // as a stopping server does: the job runs on
    assertTrue(ProcessHandle.of(first.pid()).map(ProcessHandle::isAlive).orElse(false));
    try (DetachedJobs again = new DetachedJobs(supervision)) {
      started = again.reattach(spec.jobId(), reference);
      Files.writeString(jobDir.resolve("release"), "go");
      JobOutcome outcome = started.onExit().get(20, TimeUnit.SECONDS);
      assertEquals(5, outcome.exitCode().getAsInt(), outcome.describe());
      started = null;
    }
  }

  @Test
  void aJobThatEndedWhileNobodyFollowedItIsPickedUpFromItsStatus() throws Exception {
    LaunchSpec spec = job("/bin/sh", "-c", "exit 6").build();
    RunningJob first = launcher.launch(spec);
    String reference = first.reattachReference().orElseThrow();
    launcher.close();
    Path status = supervision.statusDirectory().resolve(spec.jobId() + ".status");
    until("the supervisor to record the end", LIMIT, () -> Files.exists(status));
    try (DetachedJobs again = new DetachedJobs(supervision)) {
      JobOutcome outcome =
          again.reattach(spec.jobId(), reference).onExit().get(20, TimeUnit.SECONDS);
      assertEquals(6, outcome.exitCode().getAsInt(), outcome.describe());
      again.forget(spec.jobId());
      assertTrue(Files.notExists(status), "the status file is deleted once the end is recorded");
    }
  }

  @Test
  void aReferenceWhosePidWasReusedIsNotTakenForTheSupervisor() throws Exception {
    long self = ProcessHandle.current().pid(); // alive, but started at another time
    try (DetachedJobs again = new DetachedJobs(supervision)) {
      JobOutcome outcome =
          again.reattach("reused", "stepd:" + self + ":1").onExit().get(20, TimeUnit.SECONDS);
      assertEquals(255, outcome.exitStatus());
      assertTrue(outcome.detail().contains("without recording"), outcome.describe());
    }
  }
}
