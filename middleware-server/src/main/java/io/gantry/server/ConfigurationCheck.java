package io.gantry.server;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.SshIdentity;
import io.gantry.server.internal.compute.ComputeBackends;
import io.gantry.server.internal.security.TlsKeystore;
import io.gantry.staging.ConnectionCheck;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@code gantry-server check} tests of a loaded configuration, without starting a server: each
 * named data source accepts its accounts, each SSH identity's key is readable, the TLS keystore
 * opens with its password, the job store accepts a connection. Every line says what was checked
 * and, for a failure, what is wrong; no secret is printed.
 */
final class ConfigurationCheck {
  /** One checked thing: what it is and, if wrong, why. */
  record Finding(String what, Optional<String> problem) {
    String line() {
      return problem.map(p -> "FAIL  " + what + ": " + p).orElse("ok    " + what);
    }
  }

  private final ServerConfig config;
  private final Duration connectTimeout;

  ConfigurationCheck(ServerConfig config) {
    this.config = config;
    this.connectTimeout = GantryServer.gatewayOptions(config).connectTimeout();
  }

  List<Finding> run() {
    List<Finding> all = new ArrayList<>();
    new TreeMap<>(config.dataSources()).values().forEach(d -> all.addAll(dataSource(d)));
    new TreeMap<>(config.sshIdentities()).values().forEach(i -> all.add(identity(i)));
    all.add(tls());
    all.add(jobStore());
    jobDirectoryReach().ifPresent(all::add);
    return all;
  }

  private List<Finding> dataSource(NamedDataSource d) {
    List<Finding> found = new ArrayList<>();
    found.add(login("data source '" + d.name() + "'", d, d.user(), d.password()));
    if (d.reader() != null) {
      found.add(
          login(
              "data source '" + d.name() + "' reader account",
              d,
              d.reader().user(),
              d.reader().password()));
    }
    return found;
  }

  private Finding login(String what, NamedDataSource d, String user, PasswordSource password) {
    char[] clear;
    try {
      clear = password.read();
    } catch (RuntimeException e) {
      return new Finding(what, Optional.of("its password cannot be read: " + e.getMessage()));
    }
    Secret secret = Secret.of(clear);
    Arrays.fill(clear, '\0');
    DataSourceSpec spec = new DataSourceSpec(d.name(), d.jdbcUrl(), user, secret);
    return new Finding(
        what + " as " + user, ConnectionCheck.connectOnce(spec, connectTimeout, false));
  }

  private static Finding identity(SshIdentity identity) {
    String what = "SSH identity '" + identity.name() + "'";
    Path key = identity.privateKeyFile();
    if (key == null) {
      try {
        Arrays.fill(identity.secret().read(), '\0');
        return new Finding(what + " (password)", Optional.empty());
      } catch (RuntimeException e) {
        return new Finding(what, Optional.of("its password cannot be read: " + e.getMessage()));
      }
    }
    try {
      String text = Files.readString(key, StandardCharsets.US_ASCII);
      if (!text.contains("PRIVATE KEY")) {
        return new Finding(what, Optional.of(key + " holds no private key (no PRIVATE KEY block)"));
      }
      return new Finding(what + " key " + key, Optional.empty());
    } catch (IOException | RuntimeException e) {
      return new Finding(what, Optional.of("cannot read its key file " + key + ": " + e));
    }
  }

  private Finding tls() {
    ServerConfig.Security security = config.security();
    if (!security.tlsEnabled()) {
      return new Finding("TLS (off: plain HTTP, loopback only)", Optional.empty());
    }
    if (security.tlsKeystore() == null) {
      Path generated = config.dataDirectory().resolve("tls");
      return new Finding(
          "TLS keystore (self-signed, generated in " + generated + " at first start)",
          Optional.empty());
    }
    String what = "TLS keystore " + security.tlsKeystore();
    try {
      TlsKeystore.configured(security.tlsKeystore(), security.tlsKeystorePassword().read());
      return new Finding(what, Optional.empty());
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return new Finding(what, Optional.of("cannot be opened: " + e.getMessage()));
    }
  }

  /**
   * On slurm and mpirun-hosts (job directories here, not on a cluster over SSH): whether the jobs'
   * default account can reach the job directories' root, which it otherwise finds only when its
   * first job fails on a node.
   */
  private Optional<Finding> jobDirectoryReach() {
    if (!ComputeBackends.policyFor(config).startsOnSharedNodes()) {
      return Optional.empty();
    }
    String name = config.sandbox().defaultOsAccount();
    String what = "job directories " + config.stagingRoot() + " for OS account " + name;
    try {
      return Optional.of(
          new Finding(
              what,
              io.gantry.server.internal.plan.JobDirectoryReach.problem(
                  config.stagingRoot(), io.gantry.dispatcher.OsAccounts.lookup(name), null)));
    } catch (IllegalArgumentException e) {
      return Optional.of(new Finding(what, Optional.of(e.getMessage())));
    }
  }

  /**
   * A plain connection, no migration: the check changes nothing. An H2 file store in use by a
   * running server is locked, which the problem then says.
   */
  private Finding jobStore() {
    String url = GantryServer.storeSettings(config).jdbcUrl();
    String what = "job store " + DataSourceSpec.redactUrl(url);
    if (url.startsWith("jdbc:h2:file:") && !Files.exists(h2File(url))) {
      return new Finding(what + " (created at first start)", Optional.empty());
    }
    var settings = GantryServer.storeSettings(config);
    try (Connection c = DriverManager.getConnection(url, settings.user(), settings.password())) {
      return new Finding(what, Optional.empty());
    } catch (SQLException e) {
      return new Finding(what, Optional.of("cannot connect: " + e.getMessage()));
    }
  }

  private static Path h2File(String url) {
    String path = url.substring("jdbc:h2:file:".length());
    int options = path.indexOf(';');
    return Path.of((options < 0 ? path : path.substring(0, options)) + ".mv.db");
  }
}
