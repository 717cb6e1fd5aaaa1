package io.gantry.server.internal.jobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server configured with an empty PostgreSQL store, while its data directory's H2 store holds
 * jobs, is told so instead of starting empty; once the PostgreSQL store holds data, or with no H2
 * store beside it, nothing is said.
 */
class StoreNeighboursTest {
  @TempDir Path dir;

  @Test
  void anEmptyPostgresStoreBesideAnH2StoreWithJobsIsNamed() throws Exception {
    Path h2 = dir.resolve("jobstore").resolve("gantry");
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    JobStoreSettings settings =
        new JobStoreSettings(postgres.jdbcUrl(postgres.createDatabase()), postgres.user(), "", 2);
    try (JdbcJobStore pg = JdbcJobStore.open(settings)) {
      assertEquals(
          Optional.empty(),
          StoreNeighbours.leftBehind(pg, settings.jdbcUrl(), h2),
          "no H2 store in the data directory: nothing left behind");
      JdbcJobStore.open(JobStoreSettings.h2File(h2)).close(); // made, left empty
      assertEquals(
          Optional.empty(),
          StoreNeighbours.leftBehind(pg, settings.jdbcUrl(), h2),
          "an empty H2 store holds nothing to lose");
      try (JdbcJobStore old = JdbcJobStore.open(JobStoreSettings.h2File(h2))) {
        old.submit("alice", "nightly", "<JobDefinition/>");
      }
      String said = StoreNeighbours.leftBehind(pg, settings.jdbcUrl(), h2).orElseThrow();
      assertTrue(
          said.startsWith(
              "the configured job store is empty, but the data directory's H2 job store "
                  + h2
                  + ".mv.db holds 0 users and 1 jobs;"),
          said);
      assertTrue(said.contains("\"Moving the job store\""), said);

      pg.submit("bob", "first", "<JobDefinition/>");
      assertEquals(Optional.empty(), StoreNeighbours.leftBehind(pg, settings.jdbcUrl(), h2));
    }
    try (JdbcJobStore sameKind = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("other")))) {
      assertEquals(
          Optional.empty(),
          StoreNeighbours.leftBehind(
              sameKind, JobStoreSettings.h2File(dir.resolve("other")).jdbcUrl(), h2));
    }
  }
}
