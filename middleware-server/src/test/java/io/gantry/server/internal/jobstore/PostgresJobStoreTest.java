package io.gantry.server.internal.jobstore;

import io.gantry.testing.EmbeddedPostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;

/** The job store on a real PostgreSQL (embedded binaries), the shared-deployment option. */
class PostgresJobStoreTest extends JobStoreContract {
  private JobStoreSettings settings;

  @Override
  protected JdbcJobStore openFreshStore() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    settings =
        new JobStoreSettings(postgres.jdbcUrl(postgres.createDatabase()), postgres.user(), "", 4);
    return JdbcJobStore.open(settings);
  }

  @Override
  protected JdbcJobStore reopenStore() {
    return JdbcJobStore.open(settings);
  }

  @Override
  protected Connection connectDirectly() throws Exception {
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
  }
}
