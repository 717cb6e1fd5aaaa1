package io.gantry.server.internal.jobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upgrade across schema versions: a store made by an old gantry-server (schema version 12,
 * before user ids, outbox, calendars and accounting) with a user, a job and its audit trail, and a
 * schedule, opened the way today's server opens it at start; it is migrated to the current version
 * and keeps its data. On H2 and on PostgreSQL.
 */
class SchemaUpgradeTest {
  @TempDir Path dir;

  @Test
  void aStoreOfSchemaVersion12IsUpgradedAtStartAndKeepsItsData() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    List<JobStoreSettings> stores =
        List.of(
            JobStoreSettings.h2File(dir.resolve("gantry")),
            new JobStoreSettings(
                postgres.jdbcUrl(postgres.createDatabase()), postgres.user(), "", 2));
    for (JobStoreSettings settings : stores) {
      Flyway.configure()
          .dataSource(settings.jdbcUrl(), settings.user(), settings.password())
          .locations("classpath:io/gantry/server/internal/jobstore/migration")
          .table("gantry_schema_version")
          .target("12")
          .load()
          .migrate();
      String job = "a".repeat(32);
      try (Connection c =
              DriverManager.getConnection(
                  settings.jdbcUrl(), settings.user(), settings.password());
          Statement s = c.createStatement()) {
        s.execute(
            "INSERT INTO gantry_user (name, role, password_hash, created_at, os_account)"
                + " VALUES ('carol', 'user', 'hash-c', TIMESTAMP WITH TIME ZONE"
                + " '2025-03-01 08:00:00+00', 'gantry-test-bob')");
        s.execute(
            "INSERT INTO gantry_job (id, owner, name, state, submitted_at, finished_at,"
                + " exit_code, jsdl_xml) VALUES ('"
                + job
                + "', 'carol', 'eod-var', 'SUCCEEDED', TIMESTAMP WITH TIME ZONE"
                + " '2025-03-01 18:00:00+00', TIMESTAMP WITH TIME ZONE '2025-03-01 18:05:00+00',"
                + " 0, '<JobDefinition/>')");
        s.execute(
            "INSERT INTO gantry_job_transition (job_id, seq, from_state, to_state, occurred_at,"
                + " reason) VALUES ('"
                + job
                + "', 1, NULL, 'QUEUED', TIMESTAMP WITH TIME ZONE '2025-03-01 18:00:00+00',"
                + " 'submitted')");
        s.execute(
            "INSERT INTO gantry_schedule (id, owner, name, cron, time_zone, missed, paused,"
                + " created_at, jsdl_xml) VALUES ('"
                + "s".repeat(32)
                + "', 'carol', 'nightly', '0 22 * * 1-5', 'UTC', 'SKIP', FALSE,"
                + " TIMESTAMP WITH TIME ZONE '2025-03-01 08:00:00+00', '<JobDefinition/>')");
      }
      try (JdbcJobStore store = JdbcJobStore.open(settings)) {
        JobRecord found = store.find(JobId.parse(job)).orElseThrow();
        assertEquals(JobState.SUCCEEDED, found.state());
        assertEquals("carol", found.owner());
        assertEquals(
            List.of("submitted"),
            store.history(found.id()).stream().map(JobTransition::reason).toList());
        assertEquals("gantry-test-bob", store.userAccounts().osAccount("carol").orElseThrow());
        assertEquals(
            List.of("nightly"),
            store.schedules().list("carol").stream().map(Schedule::name).toList());
        assertTrue(store.holdsData());
        JobRecord next = store.submit("carol", "after the upgrade", "<JobDefinition/>");
        assertTrue(next.seq() > found.seq(), settings.jdbcUrl());
      }
    }
  }
}
