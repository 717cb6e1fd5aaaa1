package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What staging may reach (configuration.md, "Data sources and staging targets") and standard
 * DataStaging's file roots and trust store ("Standard DataStaging (URIs)").
 */
final class StagingSection {
  private StagingSection() {}

  static final Setting<Boolean> INLINE_DATA_SOURCES =
      Setting.of("staging.inline-data-sources", SettingType.bool())
          .byDefault("false")
          .means("whether a job may name a database by JDBC URL");
  static final Setting<List<String>> ALLOWED_JDBC_URLS =
      Setting.of("staging.allowed-jdbc-urls", SettingType.words())
          .means("globs an inline JDBC URL must match");
  static final Setting<List<String>> ALLOWED_HOSTS =
      Setting.of("staging.allowed-hosts", SettingType.words())
          .means("hosts (host, host:port, [v6]:port) staging may connect to");
  static final Setting<Boolean> CHECK_CONNECTIONS =
      Setting.of("staging.check-connections", SettingType.bool())
          .byDefault("true")
          .means(
              "whether submitting or validating a job first connects once to each database its SQL"
                  + " staging names, refusing the job when one is unreachable or refuses the"
                  + " login");
  static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.of("staging.connect-timeout", SettingType.duration())
          .byDefault("PT10S")
          .means(
              "how long one attempt to connect to a data source or an SSH host may take; a"
                  + " connection is tried three times, 1 s and then 2 s apart");
  static final Setting<List<String>> SQL_FUNCTIONS =
      Setting.of("staging.sql-functions", SettingType.words())
          .means("functions staging SQL may call beyond the built-in allow-list");
  static final Setting<List<String>> FILE_ROOTS =
      Setting.of("staging.file-roots", SettingType.words())
          .means("absolute directories file: URIs may read and write");
  static final Setting<Path> TRUST_STORE =
      Setting.of("staging.trust-store", SettingType.path())
          .shownDefault("the JDK's")
          .means("CA certificates https: and ftps: servers are checked against");
  static final Setting<String> TRUST_STORE_PASSWORD_FILE =
      Setting.of("staging.trust-store-password-file", SettingType.text())
          .means("file holding the trust store's password; required with staging.trust-store");

  static ServerConfig.Staging read(SettingValues values) {
    List<String> hosts = values.get(ALLOWED_HOSTS);
    for (String entry : hosts) {
      if (!entry.matches("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+|[0-9A-Fa-f:]+)(:\\d{1,5})?")) {
        throw new ConfigException(
            ALLOWED_HOSTS.key(), "'" + entry + "' is not a host or host:port");
      }
    }
    Set<String> functions = new TreeSet<>();
    for (String name : values.get(SQL_FUNCTIONS)) {
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new ConfigException(SQL_FUNCTIONS.key(), "'" + name + "' is not a function name");
      }
      functions.add(name.toUpperCase(Locale.ROOT));
    }
    return new ServerConfig.Staging(
        values.get(INLINE_DATA_SOURCES),
        values.get(ALLOWED_JDBC_URLS),
        hosts,
        Set.copyOf(functions),
        values.get(CHECK_CONNECTIONS),
        connectTimeout(values));
  }

  /** At least 250 ms: the staging gateway's own lower bound (GatewayOptions). */
  private static Duration connectTimeout(SettingValues values) {
    Duration timeout = values.get(CONNECT_TIMEOUT);
    if (timeout.compareTo(Duration.ofMillis(250)) < 0) {
      throw new ConfigException(
          CONNECT_TIMEOUT.key(), "must be at least 250 ms (PT0.25S), was " + timeout);
    }
    return timeout;
  }

  /**
   * file: roots must be absolute and must not hold (or lie in) the server's data directory or the
   * job directories: a job reading file:///.../tls/keystore.password or another job's input is what
   * the roots are there to prevent.
   */
  static ServerConfig.StandardStaging readStandard(SettingValues values) {
    Path data = ServerSection.dataDirectory(values);
    Path jobs = ServerSection.stagingRoot(values);
    List<Path> roots = new ArrayList<>();
    for (String word : values.get(FILE_ROOTS)) {
      Path root = Path.of(word);
      if (!root.isAbsolute()) {
        throw new ConfigException(FILE_ROOTS.key(), "'" + word + "' is not an absolute path");
      }
      root = root.normalize();
      if (root.getNameCount() == 0
          || data.startsWith(root)
          || jobs.startsWith(root)
          || root.startsWith(data)
          || root.startsWith(jobs)) {
        throw new ConfigException(
            FILE_ROOTS.key(),
            root
                + " would let jobs read or write the server's data"
                + " directory ("
                + data
                + ") or the job directories ("
                + jobs
                + ")");
      }
      roots.add(root);
    }
    Path trustStore = values.get(TRUST_STORE);
    String password = values.get(TRUST_STORE_PASSWORD_FILE);
    if (trustStore != null && password == null) {
      throw new ConfigException(
          TRUST_STORE_PASSWORD_FILE.key(), "is required with staging.trust-store");
    }
    return new ServerConfig.StandardStaging(
        roots,
        trustStore,
        password == null
            ? new PasswordSource.None()
            : new PasswordSource.FromFile(Path.of(password)));
  }
}
