package io.gantry.server.store;

import java.sql.Connection;
import java.sql.DriverManager;

/** The job store on a real PostgreSQL (embedded binaries), the shared-deployment option. */
class PostgresJobStoreTest extends JobStoreContract {
  private JobStoreSettings settings;

  @Override
  protected JdbcJobStore openFreshStore() throws Exception {
    settings = new JobStoreSettings(TestPostgres.freshDatabase(), "postgres", "postgres", 4);
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
