package io.gantry.staging;

import io.gantry.staging.internal.sql.CredentialKeys;
import io.gantry.staging.internal.sql.InlineConnectFailure;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks before the computation: every database a job's SQL staging names is reached and accepts
 * the job's credential, with one plain connection each (no retries, the gateway's connect timeout),
 * so that a wrong password fails the submission rather than the job an hour later.
 *
 * <ol>
 *   <li>An inline data source is held to the {@link ConnectionPolicy} first, as at the moment of
 *       staging; the credential is resolved (an encrypted password decrypted for the job's owner
 *       and this destination only) at the moment of the check, and forgotten after it.
 *   <li>A success is remembered for {@code remember} under the URL, the user and a keyed digest of
 *       the password ({@link CredentialKeys}), so a wrong password is never answered from the
 *       memory of a right one; a failure is never remembered.
 *   <li>A problem names the stage, the step and the data source, never the password; for an inline
 *       data source a failure other than a refused login reads "could not connect to HOST:PORT", as
 *       staging says it, so the check tells a job no more about the network than staging does.
 * </ol>
 */
public final class ConnectionCheck {
  private final CredentialResolver credentials;
  private final ConnectionPolicy policy;
  private final Duration connectTimeout;
  private final Duration remember;
  private final Clock clock;
  private final Map<String, Instant> accepted = new ConcurrentHashMap<>();
  private final CredentialKeys keys = new CredentialKeys();

  public ConnectionCheck(
      CredentialResolver credentials,
      ConnectionPolicy policy,
      Duration connectTimeout,
      Duration remember,
      Clock clock) {
    this.credentials = credentials;
    this.policy = policy;
    this.connectTimeout = connectTimeout;
    this.remember = remember;
    this.clock = clock;
  }

  /** One problem per data source of the plans that cannot be used; empty when all can. */
  public List<String> problems(StageInPlan in, StageOutPlan out) {
    Map<String, Use> uses = new LinkedHashMap<>();
    for (SqlExtract e : in.extracts()) {
      uses.putIfAbsent(
          "in " + e.dataSource(),
          new Use("stage-in", e.label(), e.dataSource(), CredentialResolver.Access.READ));
    }
    for (SqlLoad l : out.loads()) {
      uses.putIfAbsent(
          "out " + l.dataSource(),
          new Use("stage-out", l.label(), l.dataSource(), CredentialResolver.Access.WRITE));
    }
    List<String> problems = new ArrayList<>();
    for (Use use : uses.values()) {
      String problem = problem(use);
      if (problem != null) {
        problems.add(use.stage + " step " + use.step + ": " + problem);
      }
    }
    return problems;
  }

  private record Use(
      String stage, String step, DataSourceRef ref, CredentialResolver.Access access) {}

  private String problem(Use use) {
    boolean inline = use.ref.name() == null;
    if (inline) {
      var refused = policy.inlineDataSourceProblem(use.ref.jdbcUrl());
      if (refused.isPresent()) {
        return "data source " + use.ref.describe() + ": " + refused.get();
      }
    }
    DataSourceSpec spec;
    try {
      spec = credentials.dataSource(use.ref, use.access);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return "data source " + use.ref.describe() + ": " + e.getMessage();
    }
    String key = keys.of(spec);
    Instant until = accepted.get(key);
    if (until != null && clock.instant().isBefore(until)) {
      return null;
    }
    Optional<String> failed = connectOnce(spec, connectTimeout, inline);
    if (failed.isEmpty()) {
      accepted.put(key, clock.instant().plus(remember));
    }
    return failed.orElse(null);
  }

  /**
   * Why one connection to {@code spec} with its credential fails now, or empty when it opens; no
   * retry, nothing remembered (also what {@code gantry-server check} asks of each data source).
   *
   * @param inline the URL came from a job: a failure other than a refused login says only "could
   *     not connect to HOST:PORT"
   */
  public static Optional<String> connectOnce(
      DataSourceSpec spec, Duration connectTimeout, boolean inline) {
    try (Connection c = connect(spec, connectTimeout)) {
      return Optional.empty();
    } catch (SQLException e) {
      boolean loginRefused = e.getSQLState() != null && e.getSQLState().startsWith("28");
      String why =
          loginRefused
              ? "the database refused the login of user " + spec.user() + ": " + e.getMessage()
              : inline ? InlineConnectFailure.describe(spec) : e.getMessage();
      return Optional.of("cannot connect to data source " + spec.describe() + ": " + why);
    }
  }

  private static Connection connect(DataSourceSpec spec, Duration connectTimeout)
      throws SQLException {
    Driver driver = DriverManager.getDriver(spec.jdbcUrl());
    Properties p = new Properties();
    p.setProperty("user", spec.user() == null ? "" : spec.user());
    char[] password = spec.password().reveal();
    p.setProperty("password", new String(password));
    Arrays.fill(password, '\0');
    if (spec.jdbcUrl().startsWith("jdbc:postgresql:")) {
      // whole seconds, at least 1: PostgreSQL's driver bounds both the TCP connect and the login
      String seconds = Long.toString(Math.max(1, connectTimeout.toSeconds()));
      p.setProperty("connectTimeout", seconds);
      p.setProperty("loginTimeout", seconds);
    }
    Connection c = driver.connect(spec.jdbcUrl(), p);
    if (c == null) {
      throw new SQLException("no JDBC driver on the server accepts this URL", "08001");
    }
    return c;
  }
}
