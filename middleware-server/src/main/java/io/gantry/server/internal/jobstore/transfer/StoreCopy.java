package io.gantry.server.internal.jobstore.transfer;

import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.jdbc.SchemaMigrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.api.FlywayException;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Copies every row of one job store into another, empty one of the same schema version: H2 to
 * PostgreSQL, PostgreSQL to H2 (or the same kind). The source is read in one read-only
 * repeatable-read transaction, a consistent snapshot even while a server writes to a PostgreSQL
 * source; the target is written in one transaction, checked against the source's counts and
 * checksums before it commits, so a copy that fails leaves the target as empty as it was.
 */
public final class StoreCopy {
  private StoreCopy() {}

  /** A copy refused before anything was written: the stores do not fit together. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /**
   * Copies {@code from} into {@code to}, migrating {@code to} first when it is an empty database.
   *
   * @return the summary of what was copied, equal on both sides
   * @throws Refused when the source is no job store, the target already holds data, or the two are
   *     at different schema versions
   * @throws SQLException when a database fails, or when the copy's counts or checksums differ from
   *     the source's (then nothing is committed)
   */
  public static StoreSummary copy(JobStoreSettings from, JobStoreSettings to)
      throws Refused, SQLException {
    JobStoreSettings source = existingOnly(from);
    String sourceVersion =
        SchemaMigrations.appliedVersion(dataSource(source))
            .orElseThrow(
                () ->
                    new Refused(
                        "the source ("
                            + kind(from)
                            + ") is not a Gantry job store: it has no "
                            + StoreTables.HISTORY
                            + " table"));
    PrivateH2File.prepare(to.jdbcUrl()); // before H2 first opens (and creates) it
    DataSource target = dataSource(to);
    String latest = SchemaMigrations.latestVersion(target);
    if (!sourceVersion.equals(latest)) {
      throw new Refused(
          "the source store is at schema version "
              + sourceVersion
              + " and this gantry-server's is "
              + latest
              + ": "
              + (compareVersions(sourceVersion, latest) < 0
                  ? "start this gantry-server on the source once (it upgrades the store at start),"
                      + " stop it, then copy"
                  : "copy with the gantry-server that made the source store"));
    }
    Optional<String> targetVersion = SchemaMigrations.appliedVersion(target);
    if (targetVersion.isPresent() && !targetVersion.get().equals(latest)) {
      throw new Refused(
          "the target store is at schema version "
              + targetVersion.get()
              + " and the source at "
              + sourceVersion
              + ": copy only into an empty database");
    }
    try {
      SchemaMigrations.migrate(target);
    } catch (FlywayException e) {
      throw new Refused(
          "the target database could not be given the job store's tables: "
              + e.getMessage().lines().findFirst().orElse(""));
    }
    try (Connection in = connect(source);
        Connection out = connect(to)) {
      in.setReadOnly(true);
      in.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      in.setAutoCommit(false);
      out.setAutoCommit(false);
      List<String> tables = StoreTables.inInsertOrder(in);
      if (!tables.equals(StoreTables.inInsertOrder(out))) {
        throw new Refused(
            "the two stores have different tables: "
                + tables
                + " and "
                + StoreTables.inInsertOrder(out));
      }
      refuseUnlessEmpty(out, tables);
      List<StoreSummary.Table> copied = new ArrayList<>();
      for (String table : tables) {
        copied.add(TableCopy.copy(in, out, table));
      }
      in.commit();
      StoreSummary read = new StoreSummary(sourceVersion, copied);
      StoreSummary written = StoreSummary.read(out, latest);
      if (!written.equals(read)) {
        out.rollback();
        throw new SQLException(
            "the copy does not match the source, so nothing was committed: source "
                + read.tables()
                + ", copy "
                + written.tables());
      }
      for (String table : tables) {
        TableCopy.restartIdentities(out, table);
      }
      out.commit();
      PrivateH2File.tighten(to.jdbcUrl());
      return written;
    }
  }

  /** The summary of the store at {@code settings}, read in one snapshot. */
  public static StoreSummary summary(JobStoreSettings settings) throws Refused, SQLException {
    JobStoreSettings existing = existingOnly(settings);
    String version =
        SchemaMigrations.appliedVersion(dataSource(existing))
            .orElseThrow(() -> new Refused("the store is not a Gantry job store"));
    try (Connection c = connect(existing)) {
      c.setReadOnly(true);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      c.setAutoCommit(false);
      StoreSummary summary = StoreSummary.read(c, version);
      c.commit();
      return summary;
    }
  }

  private static void refuseUnlessEmpty(Connection out, List<String> tables)
      throws SQLException, Refused {
    for (String table : tables) {
      try (Statement s = out.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
        rs.next();
        if (rs.getLong(1) > 0) {
          throw new Refused(
              "the target store is not empty: "
                  + table
                  + " holds "
                  + rs.getLong(1)
                  + " rows; copy only into an empty database");
        }
      }
    }
  }

  /** "H2" or "PostgreSQL": what messages say of a store (its URL may carry a password). */
  public static String kind(JobStoreSettings settings) {
    return settings.jdbcUrl().startsWith("jdbc:h2:") ? "H2" : "PostgreSQL";
  }

  /** H2 would create an empty database where none is: a source must exist. */
  private static JobStoreSettings existingOnly(JobStoreSettings s) {
    return s.jdbcUrl().startsWith("jdbc:h2:")
            && !s.jdbcUrl().toUpperCase(java.util.Locale.ROOT).contains("IFEXISTS")
        ? new JobStoreSettings(
            s.jdbcUrl() + ";IFEXISTS=TRUE", s.user(), s.password(), s.maximumPoolSize())
        : s;
  }

  private static Connection connect(JobStoreSettings s) throws SQLException {
    return DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
  }

  private static DataSource dataSource(JobStoreSettings s) {
    if (s.jdbcUrl().startsWith("jdbc:h2:")) {
      JdbcDataSource h2 = new JdbcDataSource();
      h2.setURL(s.jdbcUrl());
      h2.setUser(s.user());
      h2.setPassword(s.password());
      return h2;
    }
    PGSimpleDataSource pg = new PGSimpleDataSource();
    pg.setURL(s.jdbcUrl());
    pg.setUser(s.user());
    pg.setPassword(s.password());
    return pg;
  }

  private static int compareVersions(String a, String b) {
    return org.flywaydb.core.api.MigrationVersion.fromVersion(a)
        .compareTo(org.flywaydb.core.api.MigrationVersion.fromVersion(b));
  }
}
