package io.gantry.testing.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The network of a test cluster: one "login" namespace holding a bridge, and one namespace per node
 * joined to that bridge by a veth pair. Both ends of every pair are created directly inside the
 * namespaces, so the machine's own namespace never sees an interface or an address of the cluster,
 * and deleting the namespaces deletes everything. The one exception is asked for ({@link
 * #linkServer()}): a veth pair from the machine's own namespace to the bridge, for a server on this
 * machine that the nodes must reach (a task farm's dispatcher), as a server host on a cluster's
 * network is; it dies with the login namespace.
 *
 * <p>Addresses: {@code PREFIX.1} is the login host, {@code PREFIX.2} this machine when linked,
 * {@code PREFIX.(10 + i)} node {@code i} (from 1).
 */
final class ClusterNetwork {
  private static final Duration IP_TIMEOUT = Duration.ofSeconds(20);

  private final String runId;
  private final String prefix;
  private final List<String> namespaces = new ArrayList<>();
  private boolean linked;

  ClusterNetwork(String runId, String prefix) {
    this.runId = runId;
    this.prefix = prefix;
  }

  String loginNamespace() {
    return "gantry-" + runId + "-login";
  }

  String nodeNamespace(int index) {
    return "gantry-" + runId + "-n" + index;
  }

  String loginAddress() {
    return prefix + "1";
  }

  String nodeAddress(int index) {
    return prefix + (10 + index);
  }

  /** This machine's address on the cluster network, once {@link #linkServer()} made it. */
  String serverAddress() {
    return prefix + "2";
  }

  /** Every namespace created so far (deleted by {@link #delete}). */
  List<String> namespaces() {
    return List.copyOf(namespaces);
  }

  /**
   * Interface names of the veth pairs: unique per run, at most 15 characters (the kernel's limit).
   */
  String bridgeSideVeth(int index) {
    return "gv" + runId + "b" + index;
  }

  String nodeSideVeth(int index) {
    return "gv" + runId + "n" + index;
  }

  /** The machine's end of the {@link #linkServer()} pair (its other end is in the login host). */
  String serverSideVeth() {
    return "gv" + runId + "s";
  }

  private String serverBridgeSideVeth() {
    return "gv" + runId + "sb";
  }

  void create(int nodes) {
    String login = loginNamespace();
    addNamespace(login);
    ip("-n", login, "link", "set", "lo", "up");
    ip("-n", login, "link", "add", "br0", "type", "bridge");
    ip("-n", login, "addr", "add", loginAddress() + "/24", "dev", "br0");
    ip("-n", login, "link", "set", "br0", "up");
    for (int i = 1; i <= nodes; i++) {
      String node = nodeNamespace(i);
      addNamespace(node);
      ip(
          "link",
          "add",
          "name",
          bridgeSideVeth(i),
          "netns",
          login,
          "type",
          "veth",
          "peer",
          "name",
          nodeSideVeth(i),
          "netns",
          node);
      ip("-n", login, "link", "set", bridgeSideVeth(i), "master", "br0");
      ip("-n", login, "link", "set", bridgeSideVeth(i), "up");
      ip("-n", node, "link", "set", "lo", "up");
      ip("-n", node, "addr", "add", nodeAddress(i) + "/24", "dev", nodeSideVeth(i));
      ip("-n", node, "link", "set", nodeSideVeth(i), "up");
    }
  }

  /**
   * Joins this machine's own namespace to the bridge: {@link #serverSideVeth()} with {@link
   * #serverAddress()}/24, its peer on the bridge in the login namespace. Deleting the login
   * namespace deletes both ends; {@link #delete} also deletes the machine's end first.
   */
  void linkServer() {
    String login = loginNamespace();
    linked = true;
    ip(
        "link",
        "add",
        "name",
        serverSideVeth(),
        "type",
        "veth",
        "peer",
        "name",
        serverBridgeSideVeth(),
        "netns",
        login);
    ip("-n", login, "link", "set", serverBridgeSideVeth(), "master", "br0");
    ip("-n", login, "link", "set", serverBridgeSideVeth(), "up");
    ip("addr", "add", serverAddress() + "/24", "dev", serverSideVeth());
    ip("link", "set", serverSideVeth(), "up");
  }

  /** Prefixes {@code command} so that it runs inside {@code namespace}'s network. */
  static List<String> inNamespace(String namespace, List<String> command) {
    // nsenter enters only the network namespace and execs the command (no fork, so the PID is
    // the command's). "ip netns exec" would also remount /sys, hiding the cgroup file system
    // slurmd needs.
    List<String> full = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + namespace, "--"));
    full.addAll(command);
    return full;
  }

  /** PIDs of the processes that live in {@code namespace} (all started by this cluster). */
  static List<Long> processesIn(String namespace) {
    CommandResult result = Commands.run(List.of("ip", "netns", "pids", namespace), IP_TIMEOUT);
    if (!result.succeeded()) {
      return List.of();
    }
    return result
        .stdout()
        .lines()
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .map(Long::parseLong)
        .toList();
  }

  /** Kills what still runs in the namespaces, then deletes them (and so their interfaces). */
  void delete(List<String> problems) {
    if (linked && interfaceExists(serverSideVeth())) {
      CommandResult result =
          Commands.run(List.of("ip", "link", "del", serverSideVeth()), IP_TIMEOUT);
      if (!result.succeeded()) {
        problems.add("cannot delete " + serverSideVeth() + ": " + result.stderr().trim());
      }
    }
    linked = false;
    for (String namespace : namespaces) {
      Daemon.killAll(processesIn(namespace), Duration.ofSeconds(5));
      CommandResult result = Commands.run(List.of("ip", "netns", "del", namespace), IP_TIMEOUT);
      if (!result.succeeded()) {
        problems.add(
            "cannot delete network namespace " + namespace + ": " + result.stderr().trim());
      }
    }
    namespaces.clear();
  }

  /** True when a namespace of this name exists on the machine. */
  static boolean namespaceExists(String namespace) {
    return Files.exists(Path.of("/run/netns", namespace));
  }

  /** True when the machine's own network namespace has an interface of this name. */
  static boolean interfaceExists(String name) {
    return Files.exists(Path.of("/sys/class/net", name));
  }

  private void addNamespace(String namespace) {
    ip("netns", "add", namespace);
    namespaces.add(namespace);
  }

  private static void ip(String... arguments) {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(arguments));
    Commands.check(command, IP_TIMEOUT);
  }
}
