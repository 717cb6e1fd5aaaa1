package io.gantry.staging.internal.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.StagingException;
import io.gantry.staging.internal.steps.Backoff;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bounded HikariCP pool per distinct data source, created on first use and kept for the
 * gateway's life, so the parallel statements of a group share a few connections instead of opening
 * one each. Getting a connection is retried with backoff; the final error names the data source and
 * its URL, never the password.
 *
 * <p>A pool is keyed by its credential ({@link CredentialKeys}): a connection opened with one
 * credential is never handed to a job that brought another.
 *
 * <p>For an inline data source (a URL from the job) every failure to connect other than a refused
 * login reads as {@link InlineConnectFailure} says.
 */
public final class DataSourcePools implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DataSourcePools.class);

  private final GatewayOptions options;
  private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
  private final Map<String, StatementLimit> limits = new ConcurrentHashMap<>();
  private final CredentialKeys keys = new CredentialKeys();

  public DataSourcePools(GatewayOptions options) {
    this.options = options;
  }

  /**
   * A connection from the data source's pool, after up to {@code connectAttempts} attempts.
   *
   * @param inline the URL came from the job: connection errors do not describe the target
   */
  public Connection connect(DataSourceSpec spec, boolean inline, String step)
      throws StagingException, InterruptedException {
    if (spec.maxStatements() == 0) {
      return pooled(spec, inline, step);
    }
    // one limit per data source name, shared by its accounts (read-user and user) and all jobs
    StatementLimit limit =
        limits.computeIfAbsent(spec.name(), n -> new StatementLimit(spec.maxStatements()));
    return limit.around(() -> pooled(spec, inline, step), spec, step);
  }

  /** Steps waiting for the statement limit of data source {@code name} now. */
  int waitingFor(String name) {
    StatementLimit limit = limits.get(name);
    return limit == null ? 0 : limit.waiting();
  }

  private Connection pooled(DataSourceSpec spec, boolean inline, String step)
      throws StagingException, InterruptedException {
    String key = keys.of(spec);
    HikariDataSource pool = pools.computeIfAbsent(key, k -> newPool(spec));
    SQLException last = null;
    for (int attempt = 1; attempt <= options.connectAttempts(); attempt++) {
      if (attempt > 1) {
        LOG.warn(
            "{}: connection to data source {} failed (attempt {} of {}), retrying: {}",
            step,
            spec.describe(),
            attempt - 1,
            options.connectAttempts(),
            Backoff.rootMessage(last));
        Backoff.sleepBefore(attempt, options.retryBackoff());
      }
      try {
        return pool.getConnection();
      } catch (SQLException e) {
        last = e;
      }
    }
    if (isLoginRefused(last) && pools.remove(key, pool)) {
      // a pool for a refused credential can never serve anyone: drop it (and its housekeeping
      // thread), so that jobs trying many passwords do not pile up pools
      pool.close();
    }
    String reason =
        inline && !isLoginRefused(last)
            ? InlineConnectFailure.describe(spec)
            : Backoff.rootMessage(last);
    throw new StagingException(
        step,
        "cannot connect to data source "
            + spec.describe()
            + " after "
            + options.connectAttempts()
            + " attempts: "
            + reason,
        inline ? null : last);
  }

  /** SQLSTATE class 28: invalid authorization (a wrong user or password), on both drivers. */
  private static boolean isLoginRefused(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s
          && s.getSQLState() != null
          && s.getSQLState().startsWith("28")) {
        return true;
      }
    }
    return false;
  }

  private HikariDataSource newPool(DataSourceSpec spec) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("gantry-staging-" + spec.name().replaceAll("[^A-Za-z0-9_.-]", "_"));
    config.setJdbcUrl(spec.jdbcUrl());
    config.setUsername(spec.user());
    char[] password = spec.password().reveal();
    config.setPassword(new String(password));
    Arrays.fill(password, '\0');
    config.setMaximumPoolSize(options.maxConnectionsPerDataSource());
    config.setMinimumIdle(0);
    long timeout = options.connectTimeout().toMillis();
    config.setConnectionTimeout(timeout);
    config.setValidationTimeout(Math.max(250, timeout / 2));
    // a database that is down when the pool is made is a connection failure to retry, not a crash
    config.setInitializationFailTimeout(-1);
    config.setIdleTimeout(60_000);
    return new HikariDataSource(config);
  }

  @Override
  public void close() {
    pools.values().forEach(HikariDataSource::close);
    pools.clear();
  }
}
