package io.gantry.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads the configuration file (Java properties, UTF-8) and command-line overrides into a
 * checked {@link ServerConfig}. Unknown settings are refused too: a misspelt setting silently
 * ignored is how a production server ends up on defaults.
 */
public final class ServerConfigLoader {
  private static final Pattern DATA_SOURCE_KEY =
      Pattern.compile("datasource\\.([A-Za-z0-9][A-Za-z0-9_.-]*)\\.(url|user|password-file|password-env|users|read-user|read-password-file|read-password-env)");
  private static final Pattern IDENTITY_KEY =
      Pattern.compile("identity\\.([A-Za-z0-9][A-Za-z0-9_.-]*)\\.(key-file|password-file|password-env|users)");
  private static final Pattern APPLICATION_KEY = Pattern.compile("application\\.([A-Za-z0-9][A-Za-z0-9_.-]*)"
      + "\\.(name|version|executable|kind|arguments|processes|users|description)");
  private static final Pattern FILESYSTEM_KEY = Pattern.compile("filesystem\\.([A-Za-z_][A-Za-z0-9_.-]*)\\.path");
  private static final Pattern SLURM_USER_KEY =
      Pattern.compile("slurm\\.user\\.([A-Za-z0-9][A-Za-z0-9_.@-]*)\\.(partition|account)");
  private static final Set<String> KNOWN = Set.of(
      "compute.backend", "mpirun.ssh-agent", "mpirun.ssh-identity", "mpirun.ssh-known-hosts", "mpirun.ssh-user",
      "mpirun.ssh-config", "slurm.bin-dir", "slurm.conf", "slurm.poll-interval", "slurm.command-timeout",
      "slurm.mpirun", "slurm.partition", "slurm.account",
      "ssh.known-hosts", "ssh.accept-unknown-host-keys",
      "staging.file-roots", "staging.trust-store", "staging.trust-store-password-file",
      "listen.host", "listen.port", "data.dir", "store.url", "store.user", "store.password-file",
      "store.password-env", "staging.root", "staging.parallelism", "staging.sql-threads",
      "mpirun.path", "mpirun.options", "mpirun.hostfile", "slots.total", "limits.wall-time",
      "limits.kill-grace", "limits.job-definition-bytes", "limits.queued-jobs-per-user", "limits.concurrent-requests-per-user",
      "demo.enabled", "demo.positions", "demo.ssh-port",
      "tls.enabled", "tls.keystore", "tls.keystore-password-file", "auth.enabled",
      "admin.password-file", "admin.password-env", "web.session-idle-timeout",
      "auth.failed-logins-before-delay",
      "http.unauthenticated-body-bytes", "http.soap-envelope-margin-bytes", "http.drain-bytes", "http.drain-time",
      "auth.failed-logins-per-user", "auth.failed-logins-per-address", "auth.trusted-address-period",
      "limits.job-staged-bytes", "limits.job-output-bytes", "limits.max-wall-time", "staging.min-free-bytes",
      "jobs.retention", "storage.check-interval",
      "jobs.default-os-account", "jobs.allowed-executable-roots",
      "staging.inline-data-sources", "staging.allowed-jdbc-urls", "staging.allowed-hosts", "staging.sql-functions");

  private final Properties settings = new Properties();

  /** Loads {@code file} if given (it must exist), then applies {@code overrides}. */
  public ServerConfig load(Path file, Map<String, String> overrides) {
    if (file != null) {
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        settings.load(in);
      } catch (IOException e) {
        throw new ConfigException("--config", "cannot read " + file + ": " + e.getMessage());
      }
    }
    overrides.forEach(settings::setProperty);
    for (String key : settings.stringPropertyNames()) {
      if (!KNOWN.contains(key) && !DATA_SOURCE_KEY.matcher(key).matches()
          && !IDENTITY_KEY.matcher(key).matches() && !SLURM_USER_KEY.matcher(key).matches()
          && !APPLICATION_KEY.matcher(key).matches() && !FILESYSTEM_KEY.matcher(key).matches()) {
        throw new ConfigException(key, "unknown setting");
      }
    }
    return build();
  }

  private ServerConfig build() {
    Path dataDir = path("data.dir", Path.of(System.getProperty("user.home"), ".gantry-server"));
    String storeUrl = text("store.url",
        "jdbc:h2:file:" + dataDir.resolve("jobstore").resolve("gantry").toAbsolutePath());
    if (!storeUrl.startsWith("jdbc:")) {
      throw new ConfigException("store.url", "must be a JDBC URL (jdbc:h2:... or jdbc:postgresql:...)");
    }
    int slots = integer("slots.total", Runtime.getRuntime().availableProcessors(), 1, 1_000_000);
    String host = text("listen.host", "127.0.0.1");
    return new ServerConfig(
        host,
        integer("listen.port", 8443, 0, 65535),
        dataDir,
        storeUrl,
        text("store.user", "gantry"),
        password("store"),
        path("staging.root", dataDir.resolve("jobs")),
        text("mpirun.path", "mpirun"),
        words("mpirun.options"),
        optionalPath("mpirun.hostfile"),
        slots,
        integer("staging.parallelism", 2, 1, 256),
        integer("staging.sql-threads", 4, 1, 256),
        duration("limits.wall-time", Duration.ofHours(12)),
        duration("limits.kill-grace", Duration.ofSeconds(10)),
        integer("limits.job-definition-bytes", 4 * 1024 * 1024, 1024, 256 * 1024 * 1024),
        integer("limits.queued-jobs-per-user", 1000, 1, 1_000_000),
        integer("limits.concurrent-requests-per-user", 16, 1, 10_000),
        demoEnabled(host),
        integer("demo.positions", 2000, 1, 10_000_000),
        integer("demo.ssh-port", 2222, 0, 65535),
        dataSources(),
        sshIdentities(),
        path("ssh.known-hosts", dataDir.resolve("ssh").resolve("known_hosts")),
        bool("ssh.accept-unknown-host-keys", false),
        security(host),
        admission(),
        storage(),
        sandbox(dataDir, path("staging.root", dataDir.resolve("jobs"))),
        staging(),
        standardStaging(dataDir, path("staging.root", dataDir.resolve("jobs"))),
        compute(),
        new JsdlResourceSettings(settings, APPLICATION_KEY, FILESYSTEM_KEY).read());
  }

  /** compute.backend and the settings of the mpirun-hosts and slurm backends. */
  private ServerConfig.Compute compute() {
    String name = text("compute.backend", "local");
    ServerConfig.Backend backend = java.util.Arrays.stream(ServerConfig.Backend.values())
        .filter(b -> b.setting().equals(name)).findFirst()
        .orElseThrow(() -> new ConfigException("compute.backend", "'" + name + "' is not local, mpirun-hosts or slurm"));
    if (backend == ServerConfig.Backend.MPIRUN_HOSTS && settings.getProperty("mpirun.hostfile") == null) {
      throw new ConfigException("mpirun.hostfile", "is required with compute.backend=mpirun-hosts");
    }
    Duration poll = duration("slurm.poll-interval", Duration.ofSeconds(5));
    if (poll.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new ConfigException("slurm.poll-interval", "must be at least 1 second, so that slurmctld is not flooded");
    }
    Map<String, ServerConfig.SlurmUser> users = new LinkedHashMap<>();
    for (String key : new TreeSet<>(settings.stringPropertyNames())) {
      var m = SLURM_USER_KEY.matcher(key);
      if (m.matches()) {
        String user = m.group(1);
        users.put(user, new ServerConfig.SlurmUser(
            slurmName("slurm.user." + user + ".partition"), slurmName("slurm.user." + user + ".account")));
      }
    }
    return new ServerConfig.Compute(backend, text("mpirun.ssh-agent", "ssh"), optionalPath("mpirun.ssh-identity"),
        optionalPath("mpirun.ssh-known-hosts"), settings.getProperty("mpirun.ssh-user"), optionalPath("mpirun.ssh-config"),
        optionalPath("slurm.bin-dir"), optionalPath("slurm.conf"), poll,
        duration("slurm.command-timeout", Duration.ofSeconds(30)), text("slurm.mpirun", "mpirun"),
        slurmName("slurm.partition"), slurmName("slurm.account"), Map.copyOf(users));
  }

  /** A Slurm partition or account name: a plain word, or null when not set. */
  private String slurmName(String key) {
    String value = settings.getProperty(key);
    if (value == null) {
      return null;
    }
    if (!value.strip().matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")) {
      throw new ConfigException(key, "'" + value + "' is not a plain Slurm name");
    }
    return value.strip();
  }

  /** Request bodies and the login throttle; the throttle's defaults follow auth.failed-logins-before-delay. */
  private ServerConfig.Admission admission() {
    int perPair = integer("auth.failed-logins-before-delay", 5, 1, 1_000_000);
    Duration drainTime = duration("http.drain-time", Duration.ofSeconds(5));
    if (drainTime.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new ConfigException("http.drain-time", "must be at most PT1M, not " + drainTime);
    }
    Duration trusted = duration("auth.trusted-address-period", Duration.ofDays(30));
    return new ServerConfig.Admission(
        integer("http.unauthenticated-body-bytes", 64 * 1024, 4 * 1024, 16 * 1024 * 1024),
        integer("http.soap-envelope-margin-bytes", 256 * 1024, 4 * 1024, 64 * 1024 * 1024),
        integer("http.drain-bytes", 16 * 1024 * 1024, 0, 1024 * 1024 * 1024),
        drainTime,
        integer("auth.failed-logins-per-user", (int) Math.min(1_000_000, 4L * perPair), 1, 4_000_000),
        integer("auth.failed-logins-per-address", (int) Math.min(1_000_000, 6L * perPair), 1, 6_000_000),
        trusted);
  }

  /**
   * Disk bounds. The default wall time must fit under the maximum, or every job without a
   * WallTimeLimit of its own would be refused.
   */
  private ServerConfig.Storage storage() {
    Duration maxWallTime = duration("limits.max-wall-time", Duration.ofDays(7));
    Duration defaultWallTime = duration("limits.wall-time", Duration.ofHours(12));
    if (defaultWallTime.compareTo(maxWallTime) > 0) {
      throw new ConfigException("limits.wall-time", defaultWallTime + " is longer than limits.max-wall-time ("
          + maxWallTime + ")");
    }
    return new ServerConfig.Storage(
        bytes("limits.job-staged-bytes", 16L << 30),
        bytes("limits.job-output-bytes", 16L << 30),
        bytes("staging.min-free-bytes", 1L << 30),
        maxWallTime,
        duration("jobs.retention", Duration.ofDays(7)),
        duration("storage.check-interval", Duration.ofSeconds(5)));
  }

  private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*([kKmMgGtT]?)(i?[bB])?");

  /** A number of bytes: plain, or with a binary suffix ({@code 512M}, {@code 16G}, {@code 2TiB}). */
  private long bytes(String key, long fallback) {
    String value = settings.getProperty(key);
    if (value == null) {
      return fallback;
    }
    var m = BYTES.matcher(value.strip());
    if (!m.matches()) {
      throw new ConfigException(key, "'" + value + "' is not a number of bytes (e.g. 1048576, 512M, 16G)");
    }
    int shift = switch (m.group(2).toUpperCase(java.util.Locale.ROOT)) {
      case "K" -> 10;
      case "M" -> 20;
      case "G" -> 30;
      case "T" -> 40;
      default -> 0;
    };
    try {
      long n = Long.parseLong(m.group(1));
      if (n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      if (n == 0) {
        throw new ConfigException(key, "must be more than 0");
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new ConfigException(key, "'" + value + "' is too large");
    }
  }

  /**
   * Who jobs run as and which programs their sandbox shows. An executable root is bound into
   * every job's sandbox, so one that holds the data directory or the job directories would show
   * jobs the server's keys and each other's files: refused.
   */
  /**
   * file: roots must be absolute and must not hold (or lie in) the server's data directory or the
   * job directories: a job reading file:///.../tls/keystore.password or another job's input is
   * what the roots are there to prevent.
   */
  private ServerConfig.StandardStaging standardStaging(Path dataDir, Path stagingRoot) {
    List<Path> roots = new java.util.ArrayList<>();
    for (String word : words("staging.file-roots")) {
      Path root = Path.of(word);
      if (!root.isAbsolute()) {
        throw new ConfigException("staging.file-roots", "'" + word + "' is not an absolute path");
      }
      root = root.normalize();
      Path data = dataDir.toAbsolutePath().normalize();
      Path jobs = stagingRoot.toAbsolutePath().normalize();
      if (root.getNameCount() == 0 || data.startsWith(root) || jobs.startsWith(root)
          || root.startsWith(data) || root.startsWith(jobs)) {
        throw new ConfigException("staging.file-roots", root + " would let jobs read or write the server's data"
            + " directory (" + data + ") or the job directories (" + jobs + ")");
      }
      roots.add(root);
    }
    Path trustStore = optionalPath("staging.trust-store");
    String password = settings.getProperty("staging.trust-store-password-file");
    if (trustStore != null && password == null) {
      throw new ConfigException("staging.trust-store-password-file", "is required with staging.trust-store");
    }
    return new ServerConfig.StandardStaging(roots, trustStore,
        password == null ? new PasswordSource.None() : new PasswordSource.FromFile(Path.of(password)));
  }

  private ServerConfig.Sandbox sandbox(Path dataDir, Path stagingRoot) {
    String account = text("jobs.default-os-account", "nobody");
    if (!account.matches("[A-Za-z0-9_][A-Za-z0-9._-]{0,31}")) {
      throw new ConfigException("jobs.default-os-account", "'" + account + "' is not an OS account name");
    }
    if (account.equals("root")) {
      throw new ConfigException("jobs.default-os-account", "must not be root: jobs never run as root");
    }
    List<Path> roots = new java.util.ArrayList<>();
    for (String word : words("jobs.allowed-executable-roots")) {
      Path root = Path.of(word);
      if (!root.isAbsolute()) {
        throw new ConfigException("jobs.allowed-executable-roots", "'" + word + "' is not an absolute path");
      }
      root = root.normalize();
      if (root.getNameCount() == 0 || dataDir.startsWith(root) || stagingRoot.startsWith(root)
          || root.startsWith(dataDir) || root.startsWith(stagingRoot)) {
        throw new ConfigException("jobs.allowed-executable-roots", root + " would show jobs the server's data"
            + " directory (" + dataDir + ") or the job directories (" + stagingRoot + "); name the"
            + " directories of the programs only");
      }
      roots.add(root);
    }
    return new ServerConfig.Sandbox(account, roots);
  }

  /**
   * The demo hands out a database and an SSH host with well-known accounts: off unless asked
   * for, and then only on a loopback listener, never on an address others reach.
   */
  private boolean demoEnabled(String host) {
    boolean demo = bool("demo.enabled", false);
    if (demo && !isLoopback(host)) {
      throw new ConfigException("demo.enabled", "the demo runs only on a loopback listener, and listen.host is "
          + host + "; turn the demo off or listen on 127.0.0.1");
    }
    return demo;
  }

  private ServerConfig.Staging staging() {
    List<String> hosts = words("staging.allowed-hosts");
    for (String entry : hosts) {
      if (!entry.matches("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+|[0-9A-Fa-f:]+)(:\\d{1,5})?")) {
        throw new ConfigException("staging.allowed-hosts", "'" + entry + "' is not a host or host:port");
      }
    }
    Set<String> functions = new TreeSet<>();
    for (String name : words("staging.sql-functions")) {
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new ConfigException("staging.sql-functions", "'" + name + "' is not a function name");
      }
      functions.add(name.toUpperCase(java.util.Locale.ROOT));
    }
    return new ServerConfig.Staging(bool("staging.inline-data-sources", false),
        words("staging.allowed-jdbc-urls"), hosts, Set.copyOf(functions));
  }

  /**
   * TLS and authentication, both on by default. Plain HTTP carries passwords and job
   * descriptions in clear, and a server without accounts lets anyone who reaches it act as its
   * one user, so turning either off is refused on any address but loopback.
   */
  private ServerConfig.Security security(String host) {
    boolean tls = bool("tls.enabled", true);
    if (!tls && !isLoopback(host)) {
      throw new ConfigException("tls.enabled", "plain HTTP is allowed only on loopback, and listen.host is "
          + host + "; set tls.enabled=true (with tls.keystore for a certificate of your own)");
    }
    Path keystore = optionalPath("tls.keystore");
    String keystorePassword = settings.getProperty("tls.keystore-password-file");
    if (keystore != null && keystorePassword == null) {
      throw new ConfigException("tls.keystore-password-file", "is required with tls.keystore");
    }
    if (keystore != null && !tls) {
      throw new ConfigException("tls.keystore", "is set but tls.enabled is false");
    }
    boolean auth = bool("auth.enabled", true);
    if (!auth && !isLoopback(host)) {
      throw new ConfigException("auth.enabled", "a server without authentication must listen on loopback only");
    }
    return new ServerConfig.Security(tls, keystore,
        keystorePassword == null ? new PasswordSource.None() : new PasswordSource.FromFile(Path.of(keystorePassword)),
        auth, password("admin"), duration("web.session-idle-timeout", Duration.ofMinutes(30)),
        integer("auth.failed-logins-before-delay", 5, 1, 1_000_000));
  }

  private static boolean isLoopback(String host) {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new ConfigException("listen.host", "unknown host " + host);
    }
  }

  private Map<String, SshIdentity> sshIdentities() {
    Set<String> names = new TreeSet<>();
    for (String key : settings.stringPropertyNames()) {
      var m = IDENTITY_KEY.matcher(key);
      if (m.matches()) {
        names.add(m.group(1));
      }
    }
    Map<String, SshIdentity> result = new LinkedHashMap<>();
    for (String name : names) {
      String prefix = "identity." + name + ".";
      Path keyFile = optionalPath(prefix + "key-file");
      PasswordSource secret = password("identity." + name);
      if (keyFile == null && secret instanceof PasswordSource.None) {
        throw new ConfigException(prefix + "key-file",
            "SSH identity " + name + " needs a key-file, or a password-file or password-env");
      }
      result.put(name, new SshIdentity(name, keyFile, secret, new TreeSet<>(words(prefix + "users"))));
    }
    return Map.copyOf(result);
  }

  private Map<String, NamedDataSource> dataSources() {
    Set<String> names = new TreeSet<>();
    for (String key : settings.stringPropertyNames()) {
      var m = DATA_SOURCE_KEY.matcher(key);
      if (m.matches()) {
        names.add(m.group(1));
      }
    }
    Map<String, NamedDataSource> result = new LinkedHashMap<>();
    for (String name : names) {
      String prefix = "datasource." + name + ".";
      String url = settings.getProperty(prefix + "url");
      if (url == null || !url.startsWith("jdbc:")) {
        throw new ConfigException(prefix + "url", "a JDBC URL is required for data source " + name);
      }
      if (url.toLowerCase(java.util.Locale.ROOT).contains("password=")) {
        throw new ConfigException(prefix + "url",
            "must not carry a password; use " + prefix + "password-file or password-env");
      }
      Set<String> users = new TreeSet<>(words(prefix + "users"));
      String readUser = settings.getProperty(prefix + "read-user");
      PasswordSource readPassword = password(prefix + "read-password-file", prefix + "read-password-env");
      if (readUser == null && !(readPassword instanceof PasswordSource.None)) {
        throw new ConfigException(prefix + "read-user", "is required with " + prefix + "read-password-file or -env");
      }
      NamedDataSource.Account reader = readUser == null ? null : new NamedDataSource.Account(readUser.strip(), readPassword);
      result.put(name, new NamedDataSource(name, url, settings.getProperty(prefix + "user", ""),
          password("datasource." + name), users, reader));
    }
    return Map.copyOf(result);
  }

  private PasswordSource password(String prefix) {
    return password(prefix + ".password-file", prefix + ".password-env");
  }

  private PasswordSource password(String fileKey, String envKey) {
    String file = settings.getProperty(fileKey);
    String env = settings.getProperty(envKey);
    if (file != null && env != null) {
      throw new ConfigException(fileKey, "set either password-file or password-env, not both");
    }
    if (file != null) {
      return new PasswordSource.FromFile(Path.of(file));
    }
    if (env != null) {
      return new PasswordSource.FromEnvironment(env);
    }
    return new PasswordSource.None();
  }

  private String text(String key, String fallback) {
    String value = settings.getProperty(key);
    if (value == null) {
      return fallback;
    }
    if (value.isBlank()) {
      throw new ConfigException(key, "is empty");
    }
    return value.strip();
  }

  private int integer(String key, int fallback, int min, int max) {
    String value = settings.getProperty(key);
    if (value == null) {
      return fallback;
    }
    int n;
    try {
      n = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new ConfigException(key, "'" + value + "' is not a whole number");
    }
    if (n < min || n > max) {
      throw new ConfigException(key, n + " is outside " + min + ".." + max);
    }
    return n;
  }

  private boolean bool(String key, boolean fallback) {
    String value = settings.getProperty(key);
    if (value == null) {
      return fallback;
    }
    return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw new ConfigException(key, "'" + value + "' is not true or false");
    };
  }

  private Path path(String key, Path fallback) {
    return Path.of(text(key, fallback.toString())).toAbsolutePath().normalize();
  }

  private Path optionalPath(String key) {
    String value = settings.getProperty(key);
    return value == null ? null : path(key, Path.of(value));
  }

  private List<String> words(String key) {
    String value = settings.getProperty(key, "").strip();
    return value.isEmpty() ? List.of() : Arrays.asList(value.split("[\\s,]+"));
  }

  /** ISO-8601 ({@code PT2H}) or a plain number of seconds. */
  private Duration duration(String key, Duration fallback) {
    String value = settings.getProperty(key);
    if (value == null) {
      return fallback;
    }
    try {
      Duration d = value.strip().matches("\\d+")
          ? Duration.ofSeconds(Long.parseLong(value.strip()))
          : Duration.parse(value.strip());
      if (d.isNegative() || d.isZero()) {
        throw new ConfigException(key, "must be positive");
      }
      return d;
    } catch (java.time.format.DateTimeParseException e) {
      throw new ConfigException(key, "'" + value + "' is not a duration (seconds, or ISO-8601 like PT2H)");
    }
  }
}
