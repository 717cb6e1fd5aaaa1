package io.gantry.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.cluster.NamespaceCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open MPI across two hosts running OpenSSH's sshd (network namespaces), mpirun started from a
 * third (the login host), reaching the others with the key, known_hosts and user of the operator's
 * settings only.
 */
class HostsMpirunLauncherTest {
  private static NamespaceCluster cluster;
  @TempDir static Path work;

  @BeforeAll
  static void startHosts() {
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(2).sshd().start();
  }

  @AfterAll
  static void stopHosts() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * mpirun on the login host. Unlike the fixture's own wrapper, this one sets no Open MPI variable:
   * the ssh settings must come from the launcher.
   */
  static Path mpirunOnLogin(Path dir, NamespaceCluster cluster) throws IOException {
    Path wrapper = dir.resolve("mpirun-on-login");
    Files.writeString(
        wrapper,
        "#!/bin/sh\nexec nsenter --net=/run/netns/"
            + cluster.loginNamespace()
            + " -- mpirun \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    return wrapper;
  }

  static SshLaunchAgent agent(NamespaceCluster cluster) {
    return new SshLaunchAgent(
        "ssh", cluster.sshPrivateKey(), cluster.knownHosts(), cluster.sshUser(), null);
  }

  private HostsMpirunLauncher launcher() throws IOException {
    return launcher(null);
  }

  private HostsMpirunLauncher launcher(NodeSandbox sandbox) throws IOException {
    DispatcherConfig config =
        new DispatcherConfig(
            mpirunOnLogin(work, cluster).toString(),
            List.of(),
            false,
            Duration.ofSeconds(2),
            DispatcherConfig.DEFAULT_INHERITED_ENVIRONMENT);
    return new HostsMpirunLauncher(config, cluster.hostfile(), agent(cluster), sandbox);
  }

  @Test
  void fourRanksRunOnBothHostsOfTheHostFile() throws Exception {
    Path dir = Files.createDirectories(work.resolve("spread"));
    LaunchSpec spec =
        LaunchSpec.builder("job-spread", ProgramKind.MPI, "/bin/sh")
            .arguments("-c", "echo \"$(hostname) $OMPI_COMM_WORLD_RANK\"")
            .processes(4)
            .workingDirectory(dir)
            .output(dir.resolve("stdout.txt"), dir.resolve("stderr.txt"))
            .wallTimeLimit(Duration.ofMinutes(2))
            .build();
    try (HostsMpirunLauncher launcher = launcher()) {
      JobOutcome outcome = launcher.launch(spec).onExit().get(120, TimeUnit.SECONDS);
      assertTrue(
          outcome.succeeded(),
          outcome.describe() + ": " + Files.readString(dir.resolve("stderr.txt")));
    }
    List<String> hosts =
        Files.readAllLines(dir.resolve("stdout.txt")).stream()
            .map(l -> l.split(" ")[0])
            .distinct()
            .sorted()
            .toList();
    assertEquals(List.of("n1", "n2"), hosts);
  }

  @Test
  void theSshSettingsAreTheOperatorsAndStrictHostKeyCheckingIsAlwaysOn() {
    Map<String, String> env = agent(cluster).environment();
    assertEquals("ssh", env.get("OMPI_MCA_plm_rsh_agent"));
    String args = env.get("OMPI_MCA_plm_rsh_args");
    assertTrue(
        args.contains("-i " + cluster.sshPrivateKey())
            && args.contains("StrictHostKeyChecking=yes")
            && args.contains("BatchMode=yes")
            && args.contains("UserKnownHostsFile=" + cluster.knownHosts()),
        args);
    assertThrows(
        IllegalArgumentException.class,
        () -> new SshLaunchAgent("ssh", Path.of("/k ey"), null, null, null),
        "Open MPI splits at spaces");
  }

  @Test
  void aJobsOwnHostFileIsRefusedItsHostNamesNeverReachSsh() throws Exception {
    Path dir = Files.createDirectories(work.resolve("own-hostfile"));
    Path own =
        Files.writeString(
            dir.resolve("hosts.txt"), "-oProxyCommand=touch${IFS}/tmp/pwned slots=1\n");
    LaunchSpec spec =
        LaunchSpec.builder("job-own", ProgramKind.MPI, "/bin/true")
            .workingDirectory(dir)
            .hostFile(own)
            .output(dir.resolve("o"), dir.resolve("e"))
            .build();
    try (HostsMpirunLauncher launcher = launcher()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> launcher.launch(spec));
      assertTrue(e.getMessage().contains("host file"), e.getMessage());
    }
  }

  @Test
  void aJobMayNotSetOpenMpisSshAgentThroughItsEnvironment() throws Exception {
    Path dir = Files.createDirectories(work.resolve("agent-env"));
    LaunchSpec spec =
        LaunchSpec.builder("job-agent", ProgramKind.MPI, "/bin/true")
            .workingDirectory(dir)
            .environment("OMPI_MCA_plm_rsh_agent", "sh -c 'touch /tmp/pwned'")
            .output(dir.resolve("o"), dir.resolve("e"))
            .build();
    try (HostsMpirunLauncher launcher = launcher()) {
      assertThrows(IllegalArgumentException.class, () -> launcher.launch(spec));
    }
  }

  /**
   * Each rank reports its host, working directory, HOME, the processes it sees and whether the host
   * path of its job directory exists for it.
   */
  private static LaunchSpec whereAmI(String id, Path dir) {
    return LaunchSpec.builder(id, ProgramKind.MPI, "/bin/sh")
        .arguments(
            "-c",
            "echo \"$(hostname) $PWD $HOME $(ls /proc | grep -c '^[0-9]')"
                + " $(test -e '"
                + dir
                + "' && echo host-paths || echo no-host-paths)\"")
        .processes(4)
        .workingDirectory(dir)
        .output(dir.resolve("stdout.txt"), dir.resolve("stderr.txt"))
        .wallTimeLimit(Duration.ofMinutes(2))
        .build();
  }

  private static List<String> run(HostsMpirunLauncher launcher, LaunchSpec spec) throws Exception {
    Path dir = spec.workingDirectory();
    JobOutcome outcome = launcher.launch(spec).onExit().get(120, TimeUnit.SECONDS);
    assertTrue(
        outcome.succeeded(),
        outcome.describe() + ": " + Files.readString(dir.resolve("stderr.txt")));
    return Files.readAllLines(dir.resolve("stdout.txt")).stream().sorted().toList();
  }

  @Test
  void everyRankStartsInTheJobSandboxOnItsHost() throws Exception {
    Path dir = Files.createDirectories(work.resolve("sandboxed"));
    try (HostsMpirunLauncher launcher = launcher(new NodeSandbox(SandboxConfig.defaults(), true))) {
      List<String> ranks = run(launcher, whereAmI("job-sandboxed", dir));
      assertEquals(4, ranks.size(), ranks.toString());
      for (String rank : ranks) {
        String[] f = rank.split(" ");
        assertEquals("/job", f[1], "the job directory is /job on the host: " + rank);
        assertEquals("/job", f[2], "HOME: " + rank);
        // its PID namespace: bubblewrap's init, the shell and its command substitutions
        assertTrue(Integer.parseInt(f[3]) <= 8, "the rank sees only its own processes: " + rank);
        assertEquals("no-host-paths", f[4], rank);
      }
      assertEquals(
          List.of("n1", "n2"), ranks.stream().map(r -> r.split(" ")[0]).distinct().toList());
    }
  }

  @Test
  void aHostWithoutBubblewrapRefusesTheJobNamingTheHostOrRunsItUnconfinedWhenAllowed()
      throws Exception {
    SandboxConfig missing =
        new SandboxConfig(Path.of("/opt/no-such/bwrap"), Path.of("/usr/bin/setpriv"), List.of());
    Path refused = Files.createDirectories(work.resolve("no-bwrap"));
    try (HostsMpirunLauncher launcher = launcher(new NodeSandbox(missing, true))) {
      LaunchException e =
          assertThrows(LaunchException.class, () -> launcher.launch(whereAmI("job-r", refused)));
      assertTrue(
          e.getMessage().contains("n1: /opt/no-such/bwrap is missing")
              && e.getMessage().contains("n2: /opt/no-such/bwrap is missing")
              && e.getMessage().contains("compute.require-sandbox"),
          e.getMessage());
      assertTrue(Files.notExists(refused.resolve("stdout.txt")), "nothing ran");
    }
    Path allowed = Files.createDirectories(work.resolve("no-bwrap-allowed"));
    try (HostsMpirunLauncher launcher = launcher(new NodeSandbox(missing, false))) {
      for (String rank : run(launcher, whereAmI("job-o", allowed))) {
        assertEquals(allowed.toString(), rank.split(" ")[1], rank);
        assertTrue(rank.endsWith(" host-paths"), rank);
      }
    }
  }
}
