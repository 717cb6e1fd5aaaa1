package io.gantry.dispatcher.slurm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.testing.Await;
import io.gantry.testing.cluster.Commands;
import io.gantry.testing.cluster.NamespaceCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm backend against a real two-node Slurm cluster (slurmctld, two slurmd, munge) in
 * namespaces.
 */
class SlurmLauncherTest {
  private static final Duration POLL = Duration.ofSeconds(1);
  private static NamespaceCluster cluster;
  private static SlurmLauncher launcher;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(2).slurm().start();
    launcher = new SlurmLauncher(config());
  }

  static SlurmConfig config() {
    return new SlurmConfig(
        cluster.clientBin(),
        cluster.slurmConf(),
        POLL,
        "mpirun",
        work.resolve("slurm-scripts"),
        Duration.ofSeconds(30),
        SlurmConfig.DEFAULT_INHERITED_ENVIRONMENT);
  }

  @AfterAll
  static void stopCluster() {
    if (launcher != null) {
      launcher.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static LaunchSpec.Builder posix(Path dir, String executable, String... args)
      throws IOException {
    Files.createDirectories(dir);
    return LaunchSpec.builder("job-" + dir.getFileName(), ProgramKind.POSIX, executable)
        .arguments(args)
        .workingDirectory(dir)
        .output(dir.resolve("stdout.txt"), dir.resolve("stderr.txt"))
        .wallTimeLimit(Duration.ofMinutes(5));
  }

  private static JobOutcome await(RunningJob job, Duration limit) throws Exception {
    return job.onExit().get(limit.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void aFourRankMcvarJobSpreadOverBothNodesWritesTheSameBytesAsOnOneNode() throws Exception {
    Path bin = cluster.nodeProgramsBuild();
    Path inputs = Files.createDirectories(work.resolve("mcvar-in"));
    Commands.check(
        List.of(
            bin.resolve("mcvar-gen").toString(),
            "--out-dir",
            inputs.toString(),
            "--factors",
            "8",
            "--days",
            "120",
            "--positions",
            "80",
            "--scenarios",
            "4000",
            "--seed",
            "3"),
        Duration.ofSeconds(60));
    Path local = run4Ranks(work.resolve("mcvar-local"), inputs, false);
    Path slurm = run4Ranks(work.resolve("mcvar-slurm"), inputs, true);

    List<Path> files;
    try (Stream<Path> s = Files.list(local)) {
      files = s.sorted().toList();
    }
    assertFalse(files.isEmpty());
    for (Path f : files) {
      assertArrayEquals(
          Files.readAllBytes(f),
          Files.readAllBytes(slurm.resolve(f.getFileName())),
          f.getFileName().toString());
    }
  }

  private Path run4Ranks(Path dir, Path inputs, boolean onSlurm) throws Exception {
    Files.createDirectories(dir);
    List<String> args = new ArrayList<>();
    for (String name : List.of("factors", "history", "positions", "params")) {
      args.add("--" + name);
      args.add(inputs.resolve(name + ".csv").toString());
    }
    args.addAll(List.of("--out-dir", dir.resolve("results").toString(), "--run-id", "r1"));
    LaunchSpec spec =
        LaunchSpec.builder(
                "job-" + dir.getFileName(),
                ProgramKind.MPI,
                cluster.nodeProgramsBuild().resolve("mcvar").toString())
            .arguments(args.toArray(String[]::new))
            .processes(4)
            .workingDirectory(dir)
            .output(dir.resolve("stdout.txt"), dir.resolve("stderr.txt"))
            .wallTimeLimit(Duration.ofMinutes(5))
            .build();
    if (!onSlurm) {
      // One node: mpirun with four ranks on n1 alone.
      List<String> command =
          new ArrayList<>(
              List.of(
                  "mpirun",
                  "-np",
                  "4",
                  "--oversubscribe",
                  "--wdir",
                  dir.toString(),
                  spec.executable()));
      command.addAll(spec.arguments());
      cluster.onNode(cluster.nodes().get(0), command, Duration.ofMinutes(2)).orThrow();
      return dir.resolve("results");
    }
    JobOutcome outcome =
        await(
            launcher.submit(spec, new BatchResources(2, null, false, null, null), null, id -> {}),
            Duration.ofMinutes(2));
    assertTrue(outcome.detail().contains("n[1-2]"), "ran on both nodes: " + outcome.describe());
    assertTrue(
        outcome.succeeded(),
        outcome.describe() + ": " + Files.readString(dir.resolve("stderr.txt")));
    return dir.resolve("results");
  }

  @Test
  void argumentsAndFileNamesReachTheProgramAsTheyWereWritten() throws Exception {
    Path dir = work.resolve("args");
    List<String> hostile =
        List.of(
            "a b; touch " + dir.resolve("pwned"),
            "$(touch " + dir.resolve("pwned2") + ")",
            "'\"`",
            "%j %u",
            "--uid=0",
            "*");
    LaunchSpec spec =
        LaunchSpec.builder("job-args", ProgramKind.POSIX, "/usr/bin/printf")
            .arguments(Stream.concat(Stream.of("%s\\n"), hostile.stream()).toArray(String[]::new))
            .workingDirectory(Files.createDirectories(dir))
            .output(dir.resolve("out %j.txt"), dir.resolve("err.txt"))
            .wallTimeLimit(Duration.ofMinutes(2))
            .build();
    JobOutcome outcome = await(launcher.launch(spec), Duration.ofSeconds(60));

    assertTrue(outcome.succeeded(), outcome.describe());
    assertEquals(hostile, Files.readAllLines(dir.resolve("out %j.txt")));
    assertFalse(Files.exists(dir.resolve("pwned")) || Files.exists(dir.resolve("pwned2")));
  }

  @Test
  void aFailingProgramsExitCodeComesFromSlurm() throws Exception {
    JobOutcome outcome =
        await(
            launcher.launch(posix(work.resolve("fails"), "/bin/sh", "-c", "exit 3").build()),
            Duration.ofSeconds(60));
    assertFalse(outcome.succeeded());
    assertEquals(3, outcome.exitCode().getAsInt(), outcome.describe());
    assertTrue(outcome.detail().startsWith("Slurm: FAILED 3:0"), outcome.describe());
  }

  @Test
  void terminateCancelsTheSlurmJobAndTheOutcomeSaysKilled() throws Exception {
    Path dir = work.resolve("kill");
    RunningJob job =
        launcher.launch(posix(dir, "/bin/sh", "-c", "echo started; exec sleep 300").build());
    awaitFile(dir.resolve("stdout.txt"), "started");
    job.terminate(Duration.ofSeconds(1));
    JobOutcome outcome = await(job, Duration.ofSeconds(60));
    assertTrue(outcome.killed(), outcome.describe());
    assertTrue(outcome.detail().contains("CANCELLED"), outcome.describe());
    assertTrue(cluster.onLogin("squeue", "-h").stdout().isBlank(), "nothing left in the queue");
  }

  @Test
  void aNewLauncherReattachesToAJobAnEarlierOneSubmittedAndFollowsItToItsEnd() throws Exception {
    Path dir = work.resolve("reattach");
    AtomicReference<String> slurmId = new AtomicReference<>();
    try (SlurmLauncher first = new SlurmLauncher(config())) {
      first.submit(
          posix(dir, "/bin/sh", "-c", "echo started; sleep 4; echo done").build(),
          BatchResources.none(),
          null,
          slurmId::set);
      awaitFile(dir.resolve("stdout.txt"), "started");
    } // the first "server" is gone; the job runs on in Slurm

    try (SlurmLauncher second = new SlurmLauncher(config())) {
      JobOutcome outcome =
          await(second.reattach("job-reattach", slurmId.get()), Duration.ofSeconds(60));
      assertTrue(outcome.succeeded(), outcome.describe());
    }
    assertEquals(List.of("started", "done"), Files.readAllLines(dir.resolve("stdout.txt")));
  }

  @Test
  void aJobPastItsWallTimeEndsAsTimeoutInWholeSlurmMinutes() throws Exception {
    // Slurm counts in minutes: 20 s becomes --time=1, and Slurm ends the job 60-90 s after start.
    JobOutcome outcome =
        await(
            launcher.launch(
                posix(work.resolve("timeout"), "/bin/sleep", "600")
                    .wallTimeLimit(Duration.ofSeconds(20))
                    .build()),
            Duration.ofSeconds(180));
    assertTrue(outcome.wallTimeExceeded(), outcome.describe());
    assertFalse(outcome.succeeded());
    assertTrue(outcome.detail().contains("TIMEOUT"), outcome.describe());
  }

  static void awaitFile(Path file, String text) {
    Await.fileContaining(file, text, Duration.ofSeconds(60));
  }
}
