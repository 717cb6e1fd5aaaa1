package io.gantry.testing.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A small cluster on this machine for tests: a "login" host and N nodes, each a network namespace
 * with its own address and host name, running the real daemons through the same entry scripts the
 * docker images use ({@code docker/entrypoints/}). Needs root.
 *
 * <ol>
 *   <li>Network: a bridge in the login namespace, one veth pair per node, addresses in a private
 *       /24 chosen per run ({@code 10.x.y.1} login, {@code 10.x.y.11}, {@code .12}... nodes); they
 *       exist only inside the namespaces, so commands that talk to the cluster run inside one
 *       ({@link #onLogin}, {@link #clientBin}).
 *   <li>Slurm ({@link Builder#slurm()}): munged (one, shared through its socket file), slurmctld on
 *       the login host (Slurm host name {@code login}), one slurmd per node ({@code n1}, {@code
 *       n2}...). Clients need {@link #slurmConf()} as {@code SLURM_CONF}.
 *   <li>SSH ({@link Builder#sshd()}): OpenSSH's sshd on port 22 of the login host and of every
 *       node, for user root with a key made for this run ({@link #sshPrivateKey()}, {@link
 *       #knownHosts()}, {@link #sshConfig()}); {@link #loginSshEndpoint()} reaches the login host's
 *       sshd from this JVM.
 *   <li>A link to this machine ({@link Builder#serverLink()}): the machine's own namespace gets
 *       {@link #serverAddress()} ({@code 10.x.y.2}) on the cluster network, so the nodes reach a
 *       server running here as they reach a server host on a real cluster's network (a task farm's
 *       dispatcher listens there, its launchers on the nodes connect to it). Off by default: it is
 *       the one interface of the cluster in the machine's namespace, gone with the cluster.
 * </ol>
 *
 * <p>All hosts share this machine's file system: a program built in the repository (e.g. {@code
 * node-programs/build/mcvar}) is reachable by the same path on every node, and job directories need
 * no copying. {@link #close()} stops every daemon by PID, kills whatever still runs in the
 * namespaces (job steps, orted) and deletes the namespaces, even after a failed start; a shutdown
 * hook does the same when the JVM is stopped, and the next start removes the clusters of test JVMs
 * that were killed outright (their folders under /run name their owner).
 */
public final class NamespaceCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_GRACE = Duration.ofSeconds(5);
  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);

  /** One node: its Slurm node name (also its host name), address and network namespace. */
  public record Node(String name, String address, String namespace) {}

  private final Builder settings;
  private final String runId;
  private final Path directory;
  private final Path entrypoints;
  private final ClusterNetwork network;
  private final List<Node> nodes = new ArrayList<>();
  private final List<Daemon> daemons = new ArrayList<>();
  private NamespaceTcpRelay loginSshRelay;
  private final Thread closeAtExit = new Thread(this::closeQuietly, "namespace-cluster-teardown");
  private boolean closed;

  public static Builder builder() {
    return new Builder();
  }

  private NamespaceCluster(Builder settings) {
    this.settings = settings;
    SecureRandom random = new SecureRandom();
    this.runId =
        settings.runId != null ? settings.runId : HexFormat.of().formatHex(random.generateSeed(3));
    this.directory =
        settings.directory != null
            ? settings.directory
            : StaleClusters.RUN.resolve(StaleClusters.PREFIX + runId);
    this.entrypoints = settings.repository.resolve("docker/entrypoints");
    this.network =
        new ClusterNetwork(
            runId, "10." + (100 + random.nextInt(150)) + "." + random.nextInt(256) + ".");
  }

  private void start() throws IOException {
    // A test run stopped by Ctrl-C or surefire's timeout still removes the namespaces and daemons.
    Runtime.getRuntime().addShutdownHook(closeAtExit);
    Files.createDirectories(directory.resolve("log"));
    StaleClusters.claim(directory);
    // munged (user munge) must traverse to its socket; sshd's StrictModes refuses key files below a
    // directory others may write (so not /tmp); Unix socket paths must stay under 108 bytes.
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    network.create(settings.nodes);
    for (int i = 1; i <= settings.nodes; i++) {
      nodes.add(new Node("n" + i, network.nodeAddress(i), network.nodeNamespace(i)));
    }
    if (settings.serverLink) {
      network.linkServer();
    }
    if (settings.slurm) {
      startSlurm();
    }
    if (settings.sshd) {
      startSshd();
    }
    writeClientWrappers();
  }

  // ---- Slurm ----

  private void startSlurm() throws IOException {
    List<String> generate =
        new ArrayList<>(
            List.of(
                script("slurm-conf.sh"),
                "--out",
                slurmConfDirectory().toString(),
                "--controller",
                "login=" + network.loginAddress(),
                "--munge-socket",
                mungeSocket().toString(),
                "--state-dir",
                directory.resolve("state").toString(),
                "--log-dir",
                directory.resolve("log").toString(),
                "--cpus",
                Integer.toString(settings.cpusPerNode),
                "--min-job-age",
                Long.toString(settings.minJobAge.toSeconds()),
                "--slurmd-timeout",
                Long.toString(settings.slurmdTimeout.toSeconds()),
                "--munge-key",
                mungeKey().toString()));
    for (Node node : nodes) {
      generate.addAll(List.of("--node", node.name() + "=" + node.address()));
    }
    Commands.check(generate, COMMAND_TIMEOUT);

    Daemon munged =
        daemon(
            "munged",
            List.of(
                script("munged.sh"),
                "--key",
                mungeKey().toString(),
                "--socket",
                mungeSocket().toString(),
                "--state-dir",
                directory.resolve("munge-state").toString()));
    munged.awaitReady(() -> Files.exists(mungeSocket()), START_TIMEOUT, "its socket exists");

    Daemon controller =
        daemon(
            "slurmctld",
            ClusterNetwork.inNamespace(
                loginNamespace(),
                List.of(
                    script("slurmctld.sh"),
                    "--conf",
                    slurmConfDirectory().toString(),
                    "--hostname",
                    "login")));
    controller.awaitReady(
        () -> onLogin("scontrol", "ping").stdout().contains("UP"),
        START_TIMEOUT,
        "answering scontrol ping");
    for (Node node : nodes) {
      daemon(
          "slurmd-" + node.name(),
          ClusterNetwork.inNamespace(
              node.namespace(),
              List.of(
                  script("slurmd.sh"),
                  "--conf",
                  slurmConfDirectory().toString(),
                  "--node",
                  node.name(),
                  "--hostname",
                  node.name())));
    }
    controller.awaitReady(this::allNodesIdle, START_TIMEOUT, "all nodes idle in sinfo");
  }

  private boolean allNodesIdle() {
    CommandResult result = onLogin("sinfo", "--noheader", "--Node", "--format=%N %t");
    List<String> idle = result.stdout().lines().filter(l -> l.endsWith(" idle")).toList();
    return result.succeeded() && idle.size() == nodes.size();
  }

  // ---- SSH ----

  private void startSshd() throws IOException {
    Path ssh = Files.createDirectories(directory.resolve("ssh"));
    SshFiles.keygen(sshPrivateKey(), "gantry-test-client");
    Files.copy(sshPrivateKey().resolveSibling("id_ed25519.pub"), ssh.resolve("authorized_keys"));
    List<String> knownHosts = new ArrayList<>();
    Map<String, String> hosts = new LinkedHashMap<>(); // host name -> namespace
    hosts.put(controllerName(), loginNamespace());
    nodes.forEach(n -> hosts.put(n.name(), n.namespace()));
    List<Daemon> started = new ArrayList<>();
    for (Map.Entry<String, String> host : hosts.entrySet()) {
      String name = host.getKey();
      String address = name.equals(controllerName()) ? loginAddress() : nodeAddress(name);
      Path hostKey = ssh.resolve("host-" + name);
      SshFiles.keygen(hostKey, name);
      knownHosts.add(address + " " + SshFiles.publicKey(hostKey));
      List<String> sshd =
          new ArrayList<>(
              List.of(
                  script("sshd.sh"),
                  "--conf",
                  directory.resolve("sshd-" + name).toString(),
                  "--host-key",
                  hostKey.toString(),
                  "--authorized-keys",
                  ssh.resolve("authorized_keys").toString(),
                  "--user",
                  sshUser(),
                  "--listen",
                  address,
                  "--port",
                  Integer.toString(sshPort()),
                  "--hostname",
                  name));
      if (settings.trustedUserCa != null) {
        sshd.addAll(List.of("--trusted-user-ca", settings.trustedUserCa.toString()));
        settings.certificateAccounts.forEach(a -> sshd.addAll(List.of("--allow-user", a)));
        if (settings.revokedKeys != null) {
          sshd.addAll(List.of("--revoked-keys", settings.revokedKeys.toString()));
        }
      }
      if (settings.slurm) {
        // ssh sessions (a server outside the cluster running sbatch on the login host) find the
        // cluster.
        sshd.addAll(List.of("--setenv", "SLURM_CONF=" + slurmConf()));
      }
      started.add(daemon("sshd-" + name, ClusterNetwork.inNamespace(host.getValue(), sshd)));
    }
    loginSshRelay = new NamespaceTcpRelay(loginNamespace(), loginAddress(), sshPort());
    InetSocketAddress relay = loginSshRelay.localAddress();
    knownHosts.add(
        "["
            + relay.getHostString()
            + "]:"
            + relay.getPort()
            + " "
            + SshFiles.publicKey(ssh.resolve("host-" + controllerName())));
    Files.write(knownHosts(), knownHosts, StandardCharsets.UTF_8);
    SshFiles.writeConfig(sshConfig(), sshUser(), sshPrivateKey(), knownHosts());
    SshFiles.writeHostfile(
        hostfile(), nodes.stream().map(Node::address).toList(), settings.cpusPerNode);
    for (Daemon daemon : started) {
      daemon.awaitReady(
          () -> daemon.logContains("Server listening on"), START_TIMEOUT, "listening");
    }
  }

  private String nodeAddress(String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow().address();
  }

  private void writeClientWrappers() throws IOException {
    List<String> programs = new ArrayList<>(List.of("mpirun"));
    if (settings.slurm) {
      programs.addAll(
          List.of("sbatch", "srun", "salloc", "squeue", "scontrol", "scancel", "sacct", "sinfo"));
    }
    if (settings.sshd) {
      programs.addAll(List.of("ssh", "scp", "sftp"));
    }
    ClientWrappers.write(
        clientBin(),
        programs,
        clientEnvironment(),
        loginNamespace(),
        settings.sshd ? sshConfig() : null);
  }

  /**
   * Environment for clients of this cluster: {@code SLURM_CONF}; mpirun allowed as root; mpirun
   * reaching other hosts through {@link #sshConfig()}.
   */
  public Map<String, String> clientEnvironment() {
    Map<String, String> env = new LinkedHashMap<>();
    if (settings.slurm) {
      env.put("SLURM_CONF", slurmConf().toString());
    }
    env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    if (settings.sshd) {
      env.put("OMPI_MCA_plm_rsh_agent", "ssh -F " + sshConfig());
    }
    return env;
  }

  /** Runs a command on the login host (inside its namespace) with {@link #clientEnvironment()}. */
  public CommandResult onLogin(String... command) {
    return onLogin(Arrays.asList(command), COMMAND_TIMEOUT);
  }

  public CommandResult onLogin(List<String> command, Duration timeout) {
    return Commands.run(
        ClusterNetwork.inNamespace(loginNamespace(), command), clientEnvironment(), timeout);
  }

  /** Runs a command on a node (inside its namespace) with {@link #clientEnvironment()}. */
  public CommandResult onNode(Node node, List<String> command, Duration timeout) {
    return Commands.run(
        ClusterNetwork.inNamespace(node.namespace(), command), clientEnvironment(), timeout);
  }

  // ---- what tests and servers need to know ----

  public List<Node> nodes() {
    return List.copyOf(nodes);
  }

  public String loginNamespace() {
    return network.loginNamespace();
  }

  /** The login host's address: slurmctld (ports 6817) and sshd (port 22) listen here. */
  public String loginAddress() {
    return network.loginAddress();
  }

  /** Slurm's name for the controller host (SlurmctldHost), also the login host's host name. */
  public String controllerName() {
    return "login";
  }

  /**
   * This machine's address on the cluster network, which every node reaches (a server's {@code
   * farm.dispatcher-host}); only with {@link Builder#serverLink()}.
   */
  public String serverAddress() {
    if (!settings.serverLink) {
      throw new IllegalStateException("the cluster was built without serverLink()");
    }
    return network.serverAddress();
  }

  /** The cluster's slurm.conf; give it to clients as SLURM_CONF. */
  public Path slurmConf() {
    return slurmConfDirectory().resolve("slurm.conf");
  }

  /** Job completion log (jobcomp/filetxt): one line per finished job, read by {@code sacct -c}. */
  public Path jobCompletionLog() {
    return directory.resolve("state/jobcomp.log");
  }

  public Path mungeSocket() {
    return directory.resolve("munge/munge.socket");
  }

  public Path mungeKey() {
    return directory.resolve("munge.key");
  }

  /**
   * Folder of wrappers (sbatch, squeue, scontrol, scancel, sacct, srun, mpirun, ssh...) running on
   * the login host.
   */
  public Path clientBin() {
    return directory.resolve("bin");
  }

  public String sshUser() {
    return "root";
  }

  public int sshPort() {
    return 22;
  }

  /** The client's private key (OpenSSH format, ed25519), authorised on every host. */
  public Path sshPrivateKey() {
    return directory.resolve("ssh/id_ed25519");
  }

  /** known_hosts naming every host by address, and the {@link #loginSshEndpoint()} relay. */
  public Path knownHosts() {
    return directory.resolve("ssh/known_hosts");
  }

  /**
   * An ssh_config ({@code ssh -F}) with the key, known_hosts, user and strict host key checking.
   */
  public Path sshConfig() {
    return directory.resolve("ssh/ssh_config");
  }

  /** An Open MPI host file naming every node's address with its slots. */
  public Path hostfile() {
    return directory.resolve("ssh/hostfile");
  }

  /**
   * 127.0.0.1:port of this machine, relayed to the login host's sshd (its key is in {@link
   * #knownHosts()}).
   */
  public InetSocketAddress loginSshEndpoint() {
    if (loginSshRelay == null) {
      throw new IllegalStateException("the cluster was built without sshd()");
    }
    return loginSshRelay.localAddress();
  }

  /** This run's own folder: configuration, state, logs ({@code log/}), keys. */
  public Path directory() {
    return directory;
  }

  /**
   * This run's id: part of every namespace and interface name ({@code gantry-ID-login}, {@code
   * gvIDb1}).
   */
  public String runId() {
    return runId;
  }

  /** PIDs of the daemons this cluster started (munged, slurmctld, slurmd, sshd). */
  public List<Long> daemonPids() {
    return daemons.stream().map(Daemon::pid).toList();
  }

  /** Every network namespace this cluster created. */
  public List<String> namespaces() {
    return network.namespaces();
  }

  /**
   * Names of the veth interfaces of this cluster (inside its namespaces only, but for the machine's
   * end of the {@link Builder#serverLink()} pair).
   */
  public List<String> vethNames() {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= settings.nodes; i++) {
      names.add(network.bridgeSideVeth(i));
      names.add(network.nodeSideVeth(i));
    }
    if (settings.serverLink) {
      names.add(network.serverSideVeth());
    }
    return names;
  }

  /**
   * The processes in {@code namespace} (one of {@link #namespaces()}) other than the daemons this
   * cluster started, each as "PID command line": what jobs run or left behind there (mpirun, orted,
   * ranks, the sshd sessions that carry them, a job step). Empty once every job has ended cleanly.
   */
  public List<String> jobProcessesIn(String namespace) {
    if (!network.namespaces().contains(namespace)) {
      throw new IllegalArgumentException(namespace + " is not a namespace of cluster " + runId);
    }
    List<Long> daemonPids = daemonPids();
    return ClusterNetwork.processesIn(namespace).stream()
        .filter(pid -> !daemonPids.contains(pid))
        .flatMap(pid -> ProcessHandle.of(pid).stream())
        .filter(ProcessHandle::isAlive)
        .map(p -> p.pid() + " " + p.info().commandLine().orElse("(exited)"))
        .toList();
  }

  /**
   * Takes {@code node} off the network as a host that crashed or lost its link does: its port on
   * the login host's bridge goes down (nothing it sent or is sent arrives; no reset is sent either,
   * so peers notice only by their own timeouts), then every process of a job in its namespace is
   * killed ({@link #jobProcessesIn}). Its daemons stay, unreachable, for {@link #reconnect}.
   */
  public void loseNode(Node node) {
    int index = nodes.indexOf(node) + 1;
    Commands.check(
        List.of("ip", "-n", loginNamespace(), "link", "set", network.bridgeSideVeth(index), "down"),
        COMMAND_TIMEOUT);
    for (String process : jobProcessesIn(node.namespace())) {
      long pid = Long.parseLong(process.substring(0, process.indexOf(' ')));
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /** Puts a node taken off by {@link #loseNode} back on the network. */
  public void reconnect(Node node) {
    int index = nodes.indexOf(node) + 1;
    Commands.check(
        List.of("ip", "-n", loginNamespace(), "link", "set", network.bridgeSideVeth(index), "up"),
        COMMAND_TIMEOUT);
  }

  /** True when a network namespace of this name exists on the machine. */
  public static boolean namespaceExists(String name) {
    return ClusterNetwork.namespaceExists(name);
  }

  /** True when the machine's own network namespace has an interface of this name. */
  public static boolean interfaceExistsOnMachine(String name) {
    return ClusterNetwork.interfaceExists(name);
  }

  /**
   * The repository's {@code node-programs/build} (mcvar, mcvar-gen), as scripts/test-all builds it.
   */
  public Path nodeProgramsBuild() {
    return settings.repository.resolve("node-programs/build");
  }

  private Path slurmConfDirectory() {
    return directory.resolve("slurm");
  }

  private String script(String name) {
    return entrypoints.resolve(name).toString();
  }

  private Daemon daemon(String name, List<String> command) {
    Daemon daemon = Daemon.start(name, command, directory.resolve("log").resolve(name + ".out"));
    daemons.add(daemon);
    return daemon;
  }

  /**
   * Stops daemons (newest first), kills what is left in the namespaces, deletes them and the
   * folder.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(closeAtExit);
    } catch (IllegalStateException shuttingDown) {
      // called from the hook itself
    }
    List<String> problems = new ArrayList<>();
    if (loginSshRelay != null) {
      loginSshRelay.close();
    }
    for (int i = daemons.size() - 1; i >= 0; i--) {
      Daemon daemon = daemons.get(i);
      daemon.stop(STOP_GRACE);
      if (daemon.alive()) {
        problems.add(daemon.name() + " (pid " + daemon.pid() + ") did not stop");
      }
    }
    network.delete(problems);
    if (!settings.keepDirectory) {
      deleteDirectory(problems);
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          "cluster " + runId + " was not torn down cleanly: " + problems);
    }
  }

  private void closeQuietly() {
    try {
      close();
    } catch (RuntimeException e) {
      System.err.println("NamespaceCluster " + runId + ": " + e.getMessage());
    }
  }

  private void deleteDirectory(List<String> problems) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      problems.add("cannot delete " + directory + ": " + e);
    }
  }

  /** What to start. */
  public static final class Builder {
    private int nodes = 2;
    private boolean slurm;
    private boolean sshd;
    private boolean serverLink;
    private int cpusPerNode = 2;
    private Duration minJobAge = Duration.ofMinutes(5);
    private Duration slurmdTimeout = Duration.ofSeconds(60);
    private Path directory;
    private Path repository;
    private boolean keepDirectory;
    private String runId;
    private Path trustedUserCa;
    private Path revokedKeys;
    private List<String> certificateAccounts = List.of();

    private Builder() {}

    /**
     * With {@link #trustedUserCa}: every host's sshd reads this key revocation list at each login
     * ({@code RevokedKeys}); it must exist when the cluster starts.
     */
    public Builder revokedKeys(Path keyRevocationList) {
      this.revokedKeys = keyRevocationList.toAbsolutePath();
      return this;
    }

    /**
     * Every host's sshd trusts the user CA whose public key is in {@code caPublicKey} ({@code
     * TrustedUserCAKeys}, read at each login), and lets {@code accounts} in with its certificates.
     */
    public Builder trustedUserCa(Path caPublicKey, String... accounts) {
      this.trustedUserCa = caPublicKey.toAbsolutePath();
      this.certificateAccounts = List.of(accounts);
      return this;
    }

    /** Fixes the run's id (six hex digits) instead of a random one: for tests of the teardown. */
    Builder runId(String id) {
      if (!id.matches("[0-9a-f]{6}")) {
        throw new IllegalArgumentException("runId must be six hex digits, not " + id);
      }
      this.runId = id;
      return this;
    }

    /** Number of node namespaces (n1..nN), 2 by default. */
    public Builder nodes(int count) {
      if (count < 1 || count > 200) {
        throw new IllegalArgumentException("nodes must be between 1 and 200, not " + count);
      }
      this.nodes = count;
      return this;
    }

    /** munged, slurmctld on the login host and slurmd on every node. */
    public Builder slurm() {
      this.slurm = true;
      return this;
    }

    /** sshd on the login host and on every node, with a client key made for this run. */
    public Builder sshd() {
      this.sshd = true;
      return this;
    }

    /**
     * Links this machine's own network namespace to the cluster network at {@link
     * NamespaceCluster#serverAddress()}, so that the nodes reach servers listening there.
     */
    public Builder serverLink() {
      this.serverLink = true;
      return this;
    }

    /** CPUs each Slurm node offers (and slots per host in {@link #hostfile()}), 2 by default. */
    public Builder cpusPerNode(int cpus) {
      if (cpus < 1) {
        throw new IllegalArgumentException("cpusPerNode must be at least 1, not " + cpus);
      }
      this.cpusPerNode = cpus;
      return this;
    }

    /** How long scontrol still shows a finished job (Slurm's MinJobAge), 300 s by default. */
    public Builder minJobAge(Duration age) {
      this.minJobAge = age;
      return this;
    }

    /**
     * How long a node may not answer slurmctld before Slurm marks it DOWN and its jobs end {@code
     * NODE_FAIL} (Slurm's SlurmdTimeout), 60 s by default: tests of a lost node shorten it. Too
     * short on a loaded machine, and a slow but living slurmd is taken for a lost one.
     */
    public Builder slurmdTimeout(Duration timeout) {
      if (timeout.toSeconds() < 1) {
        throw new IllegalArgumentException("slurmdTimeout must be at least 1 s, not " + timeout);
      }
      this.slurmdTimeout = timeout;
      return this;
    }

    /**
     * Folder for the run's files, created and deleted by the cluster; by default {@code
     * /run/gantry-cluster-RUNID} (only such folders are swept when their JVM was killed). Its
     * parents must not be writable by others (sshd's StrictModes) and its path short (Unix sockets
     * of munge and slurmd).
     */
    public Builder directory(Path folder) {
      this.directory = folder;
      return this;
    }

    /**
     * The Gantry repository (entry scripts, node programs); found from the working directory by
     * default.
     */
    public Builder repository(Path root) {
      this.repository = root;
      return this;
    }

    /** Leaves the run's folder (logs) in place after close, for debugging. */
    public Builder keepDirectory() {
      this.keepDirectory = true;
      return this;
    }

    /** Starts the cluster; on failure, tears down whatever had started and rethrows. */
    public NamespaceCluster start() {
      Tools.requireRootAndTools(slurm, sshd);
      if (repository == null) {
        repository = Tools.repositoryRoot();
      }
      StaleClusters.removeAll();
      NamespaceCluster cluster = new NamespaceCluster(this);
      try {
        cluster.start();
        return cluster;
      } catch (IOException | RuntimeException e) {
        try {
          cluster.close();
        } catch (RuntimeException teardown) {
          e.addSuppressed(teardown);
        }
        if (e instanceof IOException io) {
          throw new UncheckedIOException("test cluster did not start", io);
        }
        throw (RuntimeException) e;
      }
    }
  }
}
