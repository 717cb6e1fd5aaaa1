package io.gantry.dispatcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.remote.ClusterShell;
import io.gantry.testing.Await;
import io.gantry.testing.cluster.NamespaceCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slurm on a cluster reached over SSH: the login node of a namespace cluster runs OpenSSH's sshd
 * and slurmctld, and every Slurm command goes over one JSch session's exec channels, quoted by
 * {@link io.gantry.dispatcher.remote.PosixShellQuoting}. The hosts share this machine's file
 * system, so the test reads the job's files directly.
 */
class SshSlurmLauncherTest {
  private static final List<String> HOSTILE =
      List.of(
          "",
          "it's",
          "$(touch PWNED)",
          "`touch PWNED`",
          "a;touch PWNED",
          "*",
          "line\nbreak",
          "--help",
          "-rf",
          "\\",
          "é 漢字");

  private static NamespaceCluster cluster;
  private static Session session;
  private static SlurmLauncher launcher;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = NamespaceCluster.builder().nodes(1).cpusPerNode(2).slurm().sshd().start();
    launcher = newLauncher();
  }

  private static synchronized Session session() throws IOException {
    try {
      if (session == null || !session.isConnected()) {
        JSch jsch = new JSch();
        jsch.setKnownHosts(cluster.knownHosts().toString());
        jsch.addIdentity(cluster.sshPrivateKey().toString());
        session =
            jsch.getSession(
                cluster.sshUser(),
                cluster.loginSshEndpoint().getHostString(),
                cluster.loginSshEndpoint().getPort());
        session.setConfig("StrictHostKeyChecking", "yes");
        session.connect(30_000);
      }
      return session;
    } catch (JSchException e) {
      throw new IOException(e);
    }
  }

  private static SlurmLauncher newLauncher() throws IOException {
    return SlurmLauncher.overSsh(
        new SlurmConfig(
            null,
            null,
            Duration.ofSeconds(1),
            "mpirun",
            work.resolve("cluster-root/.gantry"),
            Duration.ofSeconds(30),
            List.of()),
        new ClusterShell(SshSlurmLauncherTest::session, Duration.ofSeconds(30)),
        cluster.sshUser());
  }

  @AfterAll
  static void stopCluster() {
    if (launcher != null) {
      launcher.close();
    }
    if (session != null) {
      session.disconnect();
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

  private static JobOutcome await(RunningJob job) throws Exception {
    return job.onExit().get(Await.scaled(Duration.ofSeconds(90)).toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void theBatchScriptIsInstalledOnTheClusterOverSftp() throws Exception {
    Path script = work.resolve("cluster-root/.gantry/" + BatchScript.NAME);
    assertEquals(BatchScript.TEXT, Files.readString(script));
    assertTrue(Files.isExecutable(script));
  }

  @Test
  void hostileArgumentsAndEnvironmentReachTheProgramAsTheyAre() throws Exception {
    Path dir = work.resolve("hostile");
    List<String> args =
        new ArrayList<>(List.of("-c", "printf '%s\\0' \"$@\"; printf '%s\\0' \"$HOSTILE\"", "sh"));
    args.addAll(HOSTILE);
    LaunchSpec spec =
        posix(dir, "/bin/sh", args.toArray(String[]::new))
            .environment("HOSTILE", "$(touch PWNED) 'q' \"d\" `x`\nnext")
            .build();
    JobOutcome outcome = await(launcher.launch(spec));
    assertTrue(outcome.succeeded(), outcome.describe());
    List<String> expected = new ArrayList<>(HOSTILE);
    expected.add("$(touch PWNED) 'q' \"d\" `x`\nnext");
    String out = Files.readString(dir.resolve("stdout.txt"));
    assertEquals(expected, List.of(out.split("\0", -1)).subList(0, expected.size()));
    try (var files = Files.list(dir)) {
      assertFalse(
          files.anyMatch(f -> f.getFileName().toString().equals("PWNED")), "shell text ran");
    }
  }

  @Test
  void theJobRunsWithTheLoginEnvironmentAndItsOwnVariablesOverIt() throws Exception {
    Path dir = work.resolve("environment");
    LaunchSpec spec =
        posix(
                dir,
                "/bin/sh",
                "-c",
                "command -v srun; echo \"$LANG\"; echo \"${SSH_CONNECTION-none}\"")
            .environment("LANG", "gantry-test")
            .build();
    JobOutcome outcome = await(launcher.launch(spec));
    assertTrue(outcome.succeeded(), outcome.describe());
    List<String> lines = Files.readAllLines(dir.resolve("stdout.txt"));
    assertTrue(lines.get(0).endsWith("/srun"), "PATH of the login node: " + lines);
    assertEquals("gantry-test", lines.get(1));
    assertEquals("none", lines.get(2), "the SSH session's own variables stay behind");
  }

  @Test
  void aFailingProgramReportsItsExitCode() throws Exception {
    JobOutcome outcome =
        await(launcher.launch(posix(work.resolve("fail"), "/bin/sh", "-c", "exit 7").build()));
    assertFalse(outcome.succeeded());
    assertEquals(7, outcome.exitCode().orElse(-1), outcome.describe());
  }

  @Test
  void terminateCancelsTheJobWithScancelOverSsh() throws Exception {
    Path dir = work.resolve("kill");
    RunningJob job =
        launcher.launch(posix(dir, "/bin/sh", "-c", "echo started; exec sleep 300").build());
    Await.fileContaining(dir.resolve("stdout.txt"), "started", Duration.ofSeconds(60));
    job.terminate(Duration.ofSeconds(1));
    JobOutcome outcome = await(job);
    assertTrue(outcome.killed(), outcome.describe());
    assertTrue(outcome.detail().contains("CANCELLED"), outcome.describe());
  }

  @Test
  void aNewLauncherReattachesOverSshToAJobAnEarlierOneSubmitted() throws Exception {
    Path dir = work.resolve("reattach");
    AtomicReference<String> slurmId = new AtomicReference<>();
    try (SlurmLauncher first = newLauncher()) {
      first.submit(
          posix(dir, "/bin/sh", "-c", "echo started; sleep 4; echo done").build(),
          BatchResources.none(),
          null,
          slurmId::set);
      Await.fileContaining(dir.resolve("stdout.txt"), "started", Duration.ofSeconds(60));
    }
    session.disconnect(); // a new server process opens its own connection
    try (SlurmLauncher second = newLauncher()) {
      JobOutcome outcome = await(second.reattach("job-reattach", slurmId.get()));
      assertTrue(outcome.succeeded(), outcome.describe());
    }
    assertEquals(List.of("started", "done"), Files.readAllLines(dir.resolve("stdout.txt")));
  }
}
