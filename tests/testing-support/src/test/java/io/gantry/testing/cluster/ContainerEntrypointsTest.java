package io.gantry.testing.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The images' own entry points (docker/entrypoints/run-controller.sh and run-node.sh) started as
 * they would be in docker/compose.yaml, on a machine without a container engine: each "container"
 * is a network namespace of a {@link NamespaceCluster} plus bubblewrap giving it a private /run,
 * /var, /etc/slurm and /etc/ssh, its own host name, the compose file's secrets under /run/secrets
 * and an /etc/hosts standing in for the engine's DNS.
 */
class ContainerEntrypointsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final List<String> NODES = List.of("node1", "node2");

  @TempDir static Path work;
  private static NamespaceCluster network;
  private static final List<Daemon> containers = new ArrayList<>();
  private static Path secrets;

  @BeforeAll
  static void startControllerAndTwoNodes() throws IOException {
    network = NamespaceCluster.builder().nodes(2).start();
    secrets = Files.createDirectories(work.resolve("secrets"));
    Files.write(secrets.resolve("munge_key"), new SecureRandom().generateSeed(1024));
    keygen(secrets.resolve("ssh_host_key"));
    keygen(secrets.resolve("gantry_ssh_key"));
    Files.move(secrets.resolve("gantry_ssh_key.pub"), secrets.resolve("gantry_ssh_pub"));
    for (int i = 0; i < NODES.size(); i++) {
      start(NODES.get(i), network.nodes().get(i).namespace(), "run-node.sh");
    }
    start("slurmctld", network.loginNamespace(), "run-controller.sh");
  }

  @AfterAll
  static void stopContainers() {
    for (Daemon container : containers) {
      container.stop(Duration.ofSeconds(5));
    }
    network.close();
  }

  @Test
  void theControllerSeesBothNodesIdle() {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    String nodes = "";
    while (System.nanoTime() < deadline) {
      nodes =
          exec(
                  "slurmctld",
                  network.loginNamespace(),
                  "sinfo",
                  "--noheader",
                  "--Node",
                  "--format=%N %t")
              .stdout();
      if (nodes.lines().filter(l -> l.endsWith(" idle")).count() == 2) {
        break;
      }
      Daemon.sleep(Duration.ofMillis(200));
    }
    assertEquals(
        List.of("node1 idle", "node2 idle"), nodes.lines().sorted().toList(), () -> logs());
    CommandResult hosts =
        exec("slurmctld", network.loginNamespace(), "srun", "--nodes=2", "--ntasks=2", "hostname");
    assertEquals(List.of("node1", "node2"), hosts.orThrow().stdout().lines().sorted().toList());
  }

  @Test
  void aNodesSshdLetsInOnlyGantryWithItsKeyAndPresentsTheSharedHostKey() throws IOException {
    Path knownHosts = work.resolve("known_hosts");
    String hostKey = Files.readString(secrets.resolve("ssh_host_key.pub")).trim();
    Files.writeString(knownHosts, network.nodes().get(0).address() + " " + hostKey + "\n");
    awaitLog("node1", "Server listening");
    List<String> ssh =
        List.of(
            "ssh",
            "-i",
            secrets.resolve("gantry_ssh_key").toString(),
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=yes",
            "-o",
            "UserKnownHostsFile=" + knownHosts,
            "-o",
            "GlobalKnownHostsFile=/dev/null");

    List<String> asGantry = new ArrayList<>(ssh);
    asGantry.addAll(List.of("gantry@" + network.nodes().get(0).address(), "id -un; hostname"));
    CommandResult gantry = network.onLogin(asGantry, TIMEOUT);
    assertEquals(
        List.of("gantry", "node1"),
        gantry.stdout().lines().toList(),
        () -> gantry.stderr() + read(work.resolve("containers/node1/var/log/sshd.log")));

    List<String> asRoot = new ArrayList<>(ssh);
    asRoot.addAll(List.of("root@" + network.nodes().get(0).address(), "true"));
    assertFalse(network.onLogin(asRoot, TIMEOUT).succeeded(), "root must not get in");
  }

  // ---- the "engine" ----

  /** Starts a container: the image's ENTRYPOINT script inside its namespace and private mounts. */
  private static void start(String host, String namespace, String entrypoint) throws IOException {
    Path root = prepare(host);
    List<String> command = new ArrayList<>(sandbox(root, host));
    command.add(entrypoints(entrypoint));
    containers.add(
        Daemon.start(
            host, ClusterNetwork.inNamespace(namespace, command), root.resolve("console.log")));
  }

  /** Runs a command "docker exec"-style: in the container's namespace and mounts. */
  private static CommandResult exec(String host, String namespace, String... command) {
    List<String> full = new ArrayList<>(sandbox(work.resolve("containers").resolve(host), host));
    full.addAll(List.of(command));
    return Commands.run(ClusterNetwork.inNamespace(namespace, full), TIMEOUT);
  }

  private static List<String> sandbox(Path root, String host) {
    return List.of(
        "bwrap",
        "--dev-bind",
        "/",
        "/",
        "--bind",
        root.resolve("run").toString(),
        "/run",
        "--bind",
        root.resolve("var").toString(),
        "/var",
        "--bind",
        root.resolve("etc-slurm").toString(),
        "/etc/slurm",
        "--bind",
        root.resolve("etc-ssh").toString(),
        "/etc/ssh",
        "--ro-bind",
        root.resolve("hosts").toString(),
        "/etc/hosts",
        "--ro-bind",
        root.resolve("passwd").toString(),
        "/etc/passwd",
        "--ro-bind",
        root.resolve("group").toString(),
        "/etc/group",
        "--ro-bind",
        root.resolve("shadow").toString(),
        "/etc/shadow",
        "--ro-bind",
        secrets.toString(),
        "/run/secrets",
        "--unshare-uts",
        "--hostname",
        host,
        "--die-with-parent",
        "--");
  }

  /**
   * The container's private files: what an image would bring (user gantry) and what the engine
   * adds.
   */
  private static Path prepare(String host) throws IOException {
    Path root = Files.createDirectories(work.resolve("containers").resolve(host));
    for (String dir : List.of("run", "var/lib", "var/log", "var/spool", "var/tmp", "etc-slurm")) {
      Files.createDirectories(root.resolve(dir));
    }
    Commands.check(
        List.of(
            "cp", "-a", "/etc/ssh/.", Files.createDirectories(root.resolve("etc-ssh")).toString()),
        TIMEOUT);
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    StringBuilder hosts =
        new StringBuilder("127.0.0.1 localhost\n" + network.loginAddress() + " slurmctld\n");
    for (int i = 0; i < NODES.size(); i++) {
      hosts.append(network.nodes().get(i).address()).append(' ').append(NODES.get(i)).append('\n');
    }
    Files.writeString(root.resolve("hosts"), hosts);
    // The images add user gantry (uid 10001); '*' in shadow: no password, but not locked for keys.
    copyWithLine(
        "/etc/passwd", root.resolve("passwd"), "gantry:x:10001:10001::/nonexistent:/bin/sh");
    copyWithLine("/etc/group", root.resolve("group"), "gantry:x:10001:");
    copyWithLine("/etc/shadow", root.resolve("shadow"), "gantry:*:19000:0:99999:7:::");
    return root;
  }

  private static void copyWithLine(String from, Path to, String line) throws IOException {
    Files.copy(Path.of(from), to);
    Files.writeString(to, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }

  private static String entrypoints(String script) {
    return network
        .nodeProgramsBuild()
        .getParent()
        .getParent()
        .resolve("docker/entrypoints")
        .resolve(script)
        .toString();
  }

  private static void keygen(Path file) {
    Commands.check(
        List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", file.toString()), TIMEOUT);
  }

  private static void awaitLog(String host, String text) {
    Daemon container =
        containers.stream().filter(c -> c.name().equals(host)).findFirst().orElseThrow();
    Path sshdLog = work.resolve("containers").resolve(host).resolve("var/log/sshd.log");
    container.awaitReady(
        () -> read(sshdLog).contains(text), TIMEOUT, "'" + text + "' in " + sshdLog);
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static String logs() {
    StringBuilder all = new StringBuilder();
    for (Daemon c : containers) {
      all.append("\n--- ").append(c.name()).append(":\n").append(c.logTail());
    }
    return all.toString();
  }
}
