package io.gantry.server.internal.jobstore.jdbc;

import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/**
 * Brings the job store's schema up to date with Flyway: the versioned scripts {@code
 * V<n>__<what>.sql} under {@code io/gantry/server/internal/jobstore/migration}, each applied once,
 * in order, in its own transaction, and recorded in {@code gantry_schema_version}. Running it again
 * on an up-to-date database changes nothing; an edited script that was already applied fails the
 * start (checksum mismatch) instead of silently diverging.
 */
public final class SchemaMigrations {
  static final String LOCATION = "classpath:io/gantry/server/internal/jobstore/migration";
  static final String HISTORY_TABLE = "gantry_schema_version";

  private SchemaMigrations() {}

  /** Applies pending migrations and returns how many were applied. */
  public static int migrate(DataSource dataSource) {
    return flyway(dataSource).migrate().migrationsExecuted;
  }

  /**
   * The schema version a store is at (the last migration applied), or empty when it has none: not a
   * job store, or an empty database. Reads only.
   */
  public static Optional<String> appliedVersion(DataSource dataSource) {
    MigrationInfo current = flyway(dataSource).info().current();
    return Optional.ofNullable(current).map(m -> m.getVersion().getVersion());
  }

  /** The schema version this program's migrations bring a store to. */
  public static String latestVersion(DataSource dataSource) {
    String latest = null;
    for (MigrationInfo m : flyway(dataSource).info().all()) {
      if (m.getState().isResolved()) { // not one a newer program applied
        latest = m.getVersion().getVersion();
      }
    }
    return latest;
  }

  private static Flyway flyway(DataSource dataSource) {
    return Flyway.configure(SchemaMigrations.class.getClassLoader())
        .dataSource(dataSource)
        .locations(LOCATION)
        .table(HISTORY_TABLE)
        .failOnMissingLocations(true)
        .load();
  }
}
