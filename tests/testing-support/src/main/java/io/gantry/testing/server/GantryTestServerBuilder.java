package io.gantry.testing.server;

import io.gantry.testing.server.internal.ServerJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a {@link GantryTestServer} runs with. The defaults start fast and say what they choose:
 * 127.0.0.1 on a port the system picks, no demo, 2 compute slots, a 2 s kill grace, plain HTTP, the
 * single local user (no accounts), and staging allowed to loopback (where the tests' SSH hosts and
 * databases listen). Explicit {@link #setting settings} win over all of these.
 */
public final class GantryTestServerBuilder {
  private final Path dir;
  private Path dataDir;
  private String name = "gantry-server";
  private List<String> jvmOptions = ServerJvm.FAST_START;
  private final Map<String, String> chosen = new LinkedHashMap<>();
  private final Map<String, String> explicit = new LinkedHashMap<>();
  private final List<TestAccount> accounts = new ArrayList<>();
  private int accountsAdded;
  private boolean premadeFiles = true;

  /**
   * The system property that, {@code false}, has every server make its password key pair and its
   * demo database itself, as a first start in production does.
   */
  static final String PREMADE_FILES = "gantry.test.premade-files";

  GantryTestServerBuilder(Path dir) {
    this.dir = dir;
    this.dataDir = dir.resolve("server-data");
    chosen.put("listen.host", "127.0.0.1");
    chosen.put("listen.port", "0");
    chosen.put("demo.enabled", "false");
    chosen.put("slots.total", "2");
    chosen.put("limits.kill-grace", "PT2S");
    chosen.put("tls.enabled", "false");
    chosen.put("auth.enabled", "false");
    chosen.put("staging.allowed-hosts", "127.0.0.1");
  }

  /**
   * The data directory (default {@code DIR/server-data}); made as an operator makes it if absent.
   */
  public GantryTestServerBuilder dataDir(Path directory) {
    this.dataDir = directory;
    return this;
  }

  /** HTTPS with the server's generated, self-signed certificate ({@code tls.enabled}). */
  public GantryTestServerBuilder tls(boolean on) {
    chosen.put("tls.enabled", Boolean.toString(on));
    return this;
  }

  /** User accounts and logins ({@code auth.enabled}); add accounts with {@link #account}. */
  public GantryTestServerBuilder auth(boolean on) {
    chosen.put("auth.enabled", Boolean.toString(on));
    return this;
  }

  /** TLS and accounts, as deployed. */
  public GantryTestServerBuilder secure() {
    return tls(true).auth(true);
  }

  /** The demo market database and the demo SSH host, on a port the system picks. */
  public GantryTestServerBuilder demo(int positions) {
    chosen.put("demo.enabled", "true");
    chosen.put("demo.positions", Integer.toString(positions));
    chosen.put("demo.ssh-port", "0");
    return this;
  }

  public GantryTestServerBuilder slots(int total) {
    chosen.put("slots.total", Integer.toString(total));
    return this;
  }

  /** The compute backend ({@code compute.backend}: local, mpirun-hosts, slurm). */
  public GantryTestServerBuilder backend(String backend) {
    chosen.put("compute.backend", backend);
    return this;
  }

  /** An account added before the server starts (H2 lets one process at a time open the store). */
  public GantryTestServerBuilder account(TestAccount account) {
    accounts.add(account);
    return this;
  }

  /** Any setting of configuration.md; wins over this builder's choices. */
  public GantryTestServerBuilder setting(String key, String value) {
    explicit.put(key, value);
    return this;
  }

  /**
   * Schedules read the time from {@code clockFile} (one ISO-8601 instant, written by the test; see
   * {@link ScheduleClock}) and are checked every 200 ms: a test moves time instead of waiting.
   */
  public GantryTestServerBuilder scheduleClock(ScheduleClock clock) {
    explicit.put("schedules.test-clock-file", clock.file().toString());
    explicit.put("schedules.check-interval", "PT0.2S");
    return this;
  }

  public GantryTestServerBuilder settings(Map<String, String> settings) {
    explicit.putAll(settings);
    return this;
  }

  /**
   * The server JVM's options, instead of those that start it fastest (little heap, C1 only): a
   * benchmark measures the server as deployed, e.g. {@code List.of("-Xmx1g")}.
   */
  public GantryTestServerBuilder jvmOptions(List<String> options) {
    this.jvmOptions = List.copyOf(options);
    return this;
  }

  /** The name of the server's log files under target/gantry-test-servers. */
  public GantryTestServerBuilder name(String logName) {
    this.name = logName;
    return this;
  }

  /**
   * The server makes its demo market database itself instead of taking the one made once per build
   * ({@link DemoMarketTemplates}), and its password key pair unless one is placed ({@link
   * PasswordKeys}): the demo template's own server.
   */
  GantryTestServerBuilder withoutPremadeFiles() {
    this.premadeFiles = false;
    return this;
  }

  /** The settings the server will run on, as its configuration file gives them. */
  public Map<String, String> settingsMap() {
    Map<String, String> all = new LinkedHashMap<>(chosen);
    all.put("data.dir", dataDir.toString());
    all.putAll(explicit);
    return all;
  }

  /**
   * Writes the configuration file, adds the accounts (once: a second start of the same builder
   * reopens the same store), copies the build's demo market database into a data directory that has
   * none when the demo is on ({@link DemoMarketTemplates}) and starts gantry-server in a JVM of its
   * own.
   */
  public GantryTestServer start() throws IOException, InterruptedException {
    Path config = addAccounts();
    if (premadeFiles && Boolean.parseBoolean(System.getProperty(PREMADE_FILES, "true"))) {
      PasswordKeys.place(dataDir);
      DemoMarketTemplates.seed(settingsMap(), dataDir);
    }
    // a server that makes its own demo database and keys does at start what the others copy: the
    // demo template's maker runs while every test JVM of the build may be starting its servers
    int startSlowness = premadeFiles ? 1 : 3;
    return GantryTestServer.start(
        config, dataDir, List.copyOf(accounts), name, jvmOptions, startSlowness);
  }

  /**
   * Writes the configuration file and adds the accounts not added yet, as an operator does before
   * the first start; {@link #start} does it too. Returns the configuration file.
   */
  public Path addAccounts() throws IOException, InterruptedException {
    Path config = writeConfig();
    if (accountsAdded < accounts.size()) {
      addAccounts(config, accounts.subList(accountsAdded, accounts.size()));
      accountsAdded = accounts.size();
    }
    return config;
  }

  /**
   * Writes the configuration and copies the build's demo market database into the data directory
   * now, as {@link #start} would, so that a test can write rows into it (with {@code
   * io.gantry.testing.risk.VarResultRows}) before the server opens it: H2 opens the file in one
   * process. Returns the demo directory, {@code DATA/demo}.
   */
  public Path prepareDemo() {
    writeConfig();
    DemoMarketTemplates.seed(settingsMap(), dataDir);
    return dataDir.resolve("demo");
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The configuration file the server reads, {@code DIR/gantry-server.properties}. */
  public Path writeConfig() {
    try {
      Files.createDirectories(dir);
      if (!Files.isDirectory(dataDir)) {
        // as an operator makes it: the server refuses a data directory others may list
        Files.createDirectories(dataDir);
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx--x--x"));
      }
      Path config = dir.resolve("gantry-server.properties");
      Properties properties = new Properties();
      properties.putAll(settingsMap());
      try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
        properties.store(out, "a gantry-server for tests (GantryTestServerBuilder)");
      }
      return config;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code gantry-server user add} for each account, in one JVM ({@link ServerJvm#addUsers}). A JVM
   * start is as slow here as the server's own, when every test JVM of the build starts at once: it
   * gets the server's start timeout.
   */
  private void addAccounts(Path config, List<TestAccount> added)
      throws IOException, InterruptedException {
    List<List<String>> commands = new ArrayList<>();
    List<String> passwords = new ArrayList<>();
    for (TestAccount account : added) {
      List<String> args =
          new ArrayList<>(List.of("user", "add", account.name(), "--config", config.toString()));
      if (account.admin()) {
        args.add("--admin");
      }
      if (account.osAccount() != null) {
        args.addAll(List.of("--os-account", account.osAccount()));
      }
      commands.add(args);
      passwords.add(account.password());
    }
    Path stem = ServerJvm.logStem(name + "-user-add");
    int code = ServerJvm.addUsers(commands, passwords, stem, GantryTestServer.START_TIMEOUT);
    if (code != 0) {
      List<String> tried = Files.readAllLines(ServerJvm.out(stem));
      String last = tried.isEmpty() ? "" : tried.get(tried.size() - 1);
      boolean osAccounts = added.stream().anyMatch(account -> account.osAccount() != null);
      throw new IllegalStateException(
          "gantry-server user add exited with "
              + code
              + " ("
              + last
              + ")"
              + (osAccounts ? " (are the OS accounts there? run scripts/create-test-accounts)" : "")
              + ": "
              + Files.readString(ServerJvm.err(stem)).strip());
    }
  }
}
