package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The server's own settings (configuration.md, "Settings"): where it listens and keeps its files,
 * the job store, mpirun, slots and per-job limits, the demo and SSH host keys.
 */
final class ServerSection {
  private ServerSection() {}

  static final Setting<String> LISTEN_HOST =
      Setting.of("listen.host", SettingType.text())
          .byDefault("127.0.0.1")
          .means("address to listen on");
  static final Setting<Integer> LISTEN_PORT =
      Setting.of("listen.port", SettingType.integer(0, 65535))
          .byDefault("8443")
          .means("port; 0 picks a free one");
  static final Setting<Path> DATA_DIR =
      Setting.of("data.dir", SettingType.path())
          .shownDefault("`~/.gantry-server`")
          .means("the server's own files: job store, demo database, job directories");
  static final Setting<String> STORE_URL =
      Setting.of("store.url", SettingType.text())
          .shownDefault("H2 file in `data.dir/jobstore`")
          .means("job store JDBC URL (jdbc:h2:... or jdbc:postgresql:...)");
  static final Setting<String> STORE_USER =
      Setting.of("store.user", SettingType.text()).byDefault("gantry").means("job store user");
  static final Setting<String> STORE_PASSWORD_FILE =
      Setting.of("store.password-file", SettingType.text())
          .means("file holding the job store password");
  static final Setting<String> STORE_PASSWORD_ENV =
      Setting.of("store.password-env", SettingType.text())
          .means("environment variable holding the job store password");
  static final Setting<Duration> STORE_CONNECTION_TIMEOUT =
      Setting.of("store.connection-timeout", SettingType.duration())
          .byDefault("PT10S")
          .means("how long a request waits for a job store connection before it fails");
  static final Setting<Path> STAGING_ROOT =
      Setting.of("staging.root", SettingType.path())
          .shownDefault("`data.dir/jobs`")
          .means("the job directories");
  static final Setting<Integer> STAGING_PARALLELISM =
      Setting.of("staging.parallelism", SettingType.integer(1, 256))
          .byDefault("2")
          .means("jobs staged at the same time");
  static final Setting<Integer> STAGING_SQL_THREADS =
      Setting.of("staging.sql-threads", SettingType.integer(1, 256))
          .byDefault("4")
          .means("steps of one execution-order group one job runs at the same time");
  static final Setting<String> MPIRUN_PATH =
      Setting.of("mpirun.path", SettingType.text())
          .byDefault("mpirun")
          .means("the mpirun to launch");
  static final Setting<List<String>> MPIRUN_OPTIONS =
      Setting.of("mpirun.options", SettingType.words()).means("options added to every mpirun");
  static final Setting<Path> MPIRUN_HOSTFILE =
      Setting.of("mpirun.hostfile", SettingType.path())
          .means("Open MPI host file of compute.backend=mpirun-hosts");
  static final Setting<Integer> SLOTS_TOTAL =
      Setting.of("slots.total", SettingType.integer(1, 1_000_000))
          .shownDefault("number of cores")
          .means("compute slots (MPI processes) the meta-scheduler hands out");
  static final Setting<Duration> WALL_TIME =
      Setting.of("limits.wall-time", SettingType.duration())
          .byDefault("PT12H")
          .means("wall-time limit of a job that sets none");
  static final Setting<Duration> KILL_GRACE =
      Setting.of("limits.kill-grace", SettingType.duration())
          .byDefault("PT10S")
          .means("between SIGTERM and SIGKILL when a job is killed");
  static final Setting<Integer> JOB_DEFINITION_BYTES =
      Setting.of("limits.job-definition-bytes", SettingType.integer(1024, 256 * 1024 * 1024))
          .byDefault("4194304")
          .means("largest job description accepted");
  static final Setting<Integer> QUEUED_JOBS_PER_USER =
      Setting.of("limits.queued-jobs-per-user", SettingType.integer(1, 1_000_000))
          .byDefault("1000")
          .means("jobs a user may have waiting");
  static final Setting<Integer> CONCURRENT_REQUESTS_PER_USER =
      Setting.of("limits.concurrent-requests-per-user", SettingType.integer(1, 10_000))
          .byDefault("16")
          .means("SOAP calls one user may have in progress at once");
  static final Setting<Boolean> DEMO_ENABLED =
      Setting.of("demo.enabled", SettingType.bool())
          .byDefault("false")
          .means("the demo market database and SSH host (loopback only)");
  static final Setting<Integer> DEMO_POSITIONS =
      Setting.of("demo.positions", SettingType.integer(1, 10_000_000))
          .byDefault("2000")
          .means("size of the demo portfolio");
  static final Setting<Integer> DEMO_SSH_PORT =
      Setting.of("demo.ssh-port", SettingType.integer(0, 65535))
          .byDefault("2222")
          .means("port of the demo SSH host on 127.0.0.1; 0 picks a free one");
  static final Setting<Path> SSH_KNOWN_HOSTS =
      Setting.of("ssh.known-hosts", SettingType.path())
          .shownDefault("`data.dir/ssh/known_hosts`")
          .means("known_hosts file scp/sftp staging hosts are checked against");
  static final Setting<Boolean> SSH_ACCEPT_UNKNOWN_HOST_KEYS =
      Setting.of("ssh.accept-unknown-host-keys", SettingType.bool())
          .byDefault("false")
          .means("accept any SSH host key unchecked (test beds only)");

  /**
   * The pool (HikariCP) takes no less than 250 ms: below it, it would use its own 30 s default
   * instead.
   */
  static Duration storeConnectionTimeout(SettingValues values) {
    Duration timeout = values.get(STORE_CONNECTION_TIMEOUT);
    if (timeout.compareTo(Duration.ofMillis(250)) < 0) {
      throw new ConfigException(
          STORE_CONNECTION_TIMEOUT.key(), "must be at least 250 ms (PT0.25S), was " + timeout);
    }
    return timeout;
  }

  static Path dataDirectory(SettingValues values) {
    return values
        .find(DATA_DIR)
        .orElse(
            Path.of(System.getProperty("user.home"), ".gantry-server")
                .toAbsolutePath()
                .normalize());
  }

  static Path stagingRoot(SettingValues values) {
    return values
        .find(STAGING_ROOT)
        .orElse(dataDirectory(values).resolve("jobs").toAbsolutePath().normalize());
  }

  static String storeUrl(SettingValues values) {
    String url =
        values
            .find(STORE_URL)
            .orElse(
                "jdbc:h2:file:"
                    + dataDirectory(values).resolve("jobstore").resolve("gantry").toAbsolutePath());
    if (!url.startsWith("jdbc:")) {
      throw new ConfigException(
          STORE_URL.key(), "must be a JDBC URL (jdbc:h2:... or jdbc:postgresql:...)");
    }
    return url;
  }

  /**
   * The demo hands out a database and an SSH host with well-known accounts: off unless asked for,
   * and then only on a loopback listener, never on an address others reach.
   */
  static boolean demoEnabled(SettingValues values) {
    boolean demo = values.get(DEMO_ENABLED);
    String host = values.get(LISTEN_HOST);
    if (demo && !Loopback.is(host)) {
      throw new ConfigException(
          DEMO_ENABLED.key(),
          "the demo runs only on a loopback listener, and listen.host is "
              + host
              + "; turn the demo off or listen on 127.0.0.1");
    }
    return demo;
  }
}
