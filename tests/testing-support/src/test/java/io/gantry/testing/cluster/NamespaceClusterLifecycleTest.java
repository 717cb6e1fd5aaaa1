package io.gantry.testing.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NamespaceClusterLifecycleTest {

  @Test
  void closeLeavesNoNamespaceVethDaemonOrFolderBehind() {
    NamespaceCluster cluster = NamespaceCluster.builder().nodes(1).slurm().sshd().start();
    List<String> namespaces = cluster.namespaces();
    List<String> veths = cluster.vethNames();
    List<Long> pids = cluster.daemonPids();
    Path folder = cluster.directory();
    assertEquals(2, namespaces.size());
    assertTrue(namespaces.stream().allMatch(NamespaceCluster::namespaceExists));
    assertTrue(
        pids.stream().allMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)));
    // The cluster's interfaces and addresses exist only inside its namespaces.
    assertTrue(veths.stream().noneMatch(NamespaceCluster::interfaceExistsOnMachine));
    assertFalse(
        Commands.check(List.of("ip", "-o", "addr"), Duration.ofSeconds(10))
            .stdout()
            .contains(cluster.loginAddress()));

    cluster.close();

    assertTrue(
        namespaces.stream().noneMatch(NamespaceCluster::namespaceExists),
        "namespaces left: " + namespaces);
    assertTrue(
        veths.stream().noneMatch(NamespaceCluster::interfaceExistsOnMachine),
        "veths left: " + veths);
    assertTrue(
        pids.stream().noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)),
        "daemons left: " + pids);
    assertFalse(Files.exists(folder), "folder left: " + folder);
  }

  @Test
  void aServerLinkLetsTheNodesReachThisMachineAndGoesWithTheCluster() throws Exception {
    NamespaceCluster cluster = NamespaceCluster.builder().nodes(1).serverLink().start();
    List<String> veths = cluster.vethNames();
    String linked = veths.get(veths.size() - 1);
    try (ServerSocket server =
        new ServerSocket(0, 1, InetAddress.getByName(cluster.serverAddress()))) {
      // the one interface of the cluster in the machine's namespace, with the server's address
      assertTrue(NamespaceCluster.interfaceExistsOnMachine(linked), linked);
      assertEquals(
          1, veths.stream().filter(NamespaceCluster::interfaceExistsOnMachine).count(), "" + veths);
      CommandResult connect =
          cluster.onNode(
              cluster.nodes().get(0),
              List.of(
                  "bash",
                  "-c",
                  "exec 3<>\"/dev/tcp/$1/$2\" && echo hello >&3",
                  "connect",
                  cluster.serverAddress(),
                  Integer.toString(server.getLocalPort())),
              Duration.ofSeconds(20));
      assertTrue(connect.succeeded(), connect.stderr());
      try (Socket accepted = server.accept()) {
        assertEquals(
            "hello",
            new String(accepted.getInputStream().readNBytes(5), StandardCharsets.US_ASCII));
      }
    } finally {
      cluster.close();
    }
    assertFalse(NamespaceCluster.interfaceExistsOnMachine(linked), linked + " left");
    assertFalse(
        Commands.check(List.of("ip", "-o", "addr"), Duration.ofSeconds(10))
            .stdout()
            .contains(cluster.serverAddress() + "/"));
  }

  @Test
  void aClusterThatFailsHalfwayThroughStartingLeavesNothingBehind() {
    String runId = "f" + Long.toHexString((System.nanoTime() & 0xfffffL) | 0x100000L).substring(1);
    // The namespaces are made before slurm.conf is written; a value slurm-conf.sh refuses fails the
    // start there.
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                NamespaceCluster.builder()
                    .runId(runId)
                    .nodes(2)
                    .slurm()
                    .minJobAge(Duration.ofSeconds(-1))
                    .start());

    assertTrue(e.getMessage().contains("--min-job-age: not a number"), e.getMessage());
    for (String ns :
        List.of(
            "gantry-" + runId + "-login", "gantry-" + runId + "-n1", "gantry-" + runId + "-n2")) {
      assertFalse(NamespaceCluster.namespaceExists(ns), ns + " was left behind");
    }
    assertFalse(Files.exists(Path.of("/run/gantry-cluster-" + runId)));
  }

  @Test
  void whatAKilledTestJvmLeftIsRemovedWhileLiveClustersStay() throws Exception {
    String runId = "e" + Long.toHexString((System.nanoTime() & 0xfffffL) | 0x100000L).substring(1);
    String namespace = "gantry-" + runId + "-login";
    Path folder = Files.createDirectories(Path.of("/run/gantry-cluster-" + runId));
    Process dead = new ProcessBuilder("true").start();
    dead.waitFor();
    Files.writeString(folder.resolve("owner"), dead.pid() + " 0\n");
    Commands.check(List.of("ip", "netns", "add", namespace), Duration.ofSeconds(10));
    Process orphan =
        new ProcessBuilder(ClusterNetwork.inNamespace(namespace, List.of("sleep", "600"))).start();
    try (NamespaceCluster live = NamespaceCluster.builder().nodes(1).start()) {
      // Starting a cluster swept the stale one...
      assertFalse(NamespaceCluster.namespaceExists(namespace));
      assertFalse(Files.exists(folder));
      assertTrue(orphan.waitFor(10, TimeUnit.SECONDS), "the stale namespace's process still runs");
      // ...and a sweep leaves a cluster whose JVM runs alone.
      assertFalse(StaleClusters.removeAll().contains(live.runId()));
      assertTrue(NamespaceCluster.namespaceExists(live.loginNamespace()));
      assertTrue(Files.exists(live.directory()));
    } finally {
      orphan.destroyForcibly();
    }
  }
}
