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
 * One bounded HikariCP pool per distinct data source (JDBC URL and user), created on first use
 * and kept for the gateway's life, so the parallel statements of a group share a few connections
 * instead of opening one each. Getting a connection is retried with backoff; the final error
 * names the data source and its URL, never the password.
 */
public final class DataSourcePools implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DataSourcePools.class);

  private final GatewayOptions options;
  private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();

  public DataSourcePools(GatewayOptions options) {
    this.options = options;
  }

  /** A connection from the data source's pool, after up to {@code connectAttempts} attempts. */
  public Connection connect(DataSourceSpec spec, String step) throws StagingException, InterruptedException {
    HikariDataSource pool = pools.computeIfAbsent(spec.jdbcUrl() + "\u0000" + spec.user(), k -> newPool(spec));
    SQLException last = null;
    for (int attempt = 1; attempt <= options.connectAttempts(); attempt++) {
      if (attempt > 1) {
        LOG.warn("{}: connection to data source {} failed (attempt {} of {}), retrying: {}", step,
            spec.describe(), attempt - 1, options.connectAttempts(), Backoff.rootMessage(last));
        Backoff.sleepBefore(attempt, options.retryBackoff());
      }
      try {
        return pool.getConnection();
      } catch (SQLException e) {
        last = e;
      }
    }
    throw new StagingException(step, "cannot connect to data source " + spec.describe() + " after "
        + options.connectAttempts() + " attempts: " + Backoff.rootMessage(last), last);
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
