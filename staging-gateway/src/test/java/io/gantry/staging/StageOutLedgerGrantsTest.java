package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stage-out ledger in a database where stage-out users may not create tables (PostgreSQL 15 and
 * later by default): without it the stage-out fails telling the operator to run {@code
 * gantry-server ledger-ddl}; with what that prints run by the database owner, every stage-out user
 * commits.
 */
class StageOutLedgerGrantsTest {
  @TempDir static Path hba;
  static EmbeddedPostgresServer postgres;
  @TempDir Path jobDir;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgresServer.startWithPasswords(hba);
    try (Connection c = postgres.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE desk_a LOGIN PASSWORD 'a-password'");
      s.execute("CREATE ROLE desk_b LOGIN PASSWORD 'b-password'");
    }
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  /** A fresh database with a result table both desks may insert into, and nothing else. */
  private static String resultsDatabase() throws Exception {
    String db = postgres.createDatabase();
    try (Connection c = postgres.connect(db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE result (job_id varchar(32), v int)");
      s.execute("GRANT INSERT ON result TO desk_a, desk_b");
    }
    return db;
  }

  private void stageOut(String db, String user, String password, String jobId) throws Exception {
    Files.writeString(jobDir.resolve("result.csv"), "job_id,v\n" + jobId + ",1\n");
    SqlLoad load =
        new SqlLoad(
            DataSourceRef.inline(postgres.jdbcUrl(db), user, password),
            1,
            "INSERT INTO result (job_id, v) VALUES (?, ?)",
            "result.csv",
            100);
    try (StagingGateway gateway =
        new StagingGateway(
            new TestCredentials(),
            GatewayOptions.defaults().withRetries(Duration.ofSeconds(5), 1, Duration.ZERO))) {
      gateway.stageOut(
          new StageOutPlan(jobId, List.of(load), List.of()), jobDir, StagingListener.NONE);
    }
  }

  private static long rows(String db) throws Exception {
    try (Connection c = postgres.connect(db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM result")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aStageOutUserWhoCannotCreateTheLedgerIsToldToHaveItCreatedWithLedgerDdl() throws Exception {
    String db = resultsDatabase();
    StagingException e =
        assertThrows(StagingException.class, () -> stageOut(db, "desk_a", "a-password", "job1"));
    assertTrue(e.getMessage().contains("gantry_stage_out_ledger"), e.getMessage());
    assertTrue(
        e.getMessage().contains("gantry-server ledger-ddl --dialect postgresql"), e.getMessage());
    assertTrue(
        e.getMessage().contains("permission denied"),
        "the database's own reason: " + e.getMessage());
    assertEquals(0, rows(db), "nothing was written");
  }

  @Test
  void theStatementsLedgerDdlPrintsLetEveryStageOutUserCommit() throws Exception {
    String db = resultsDatabase();
    String script =
        StageOutLedgerDdl.script(StageOutLedgerDdl.Dialect.POSTGRESQL, List.of("desk_a", "desk_b"));
    try (Connection c = postgres.connect(db);
        Statement s = c.createStatement()) {
      s.execute(script); // as a DBA pastes it into psql
    }
    stageOut(db, "desk_a", "a-password", "job1");
    stageOut(db, "desk_b", "b-password", "job2");
    assertEquals(2, rows(db));
  }

  @Test
  void theStatementsRunOnH2Too() throws Exception {
    // the admin's connection keeps the in-memory database open for the desk's
    String url = "jdbc:h2:mem:ledger-ddl-" + System.nanoTime();
    try (Connection admin = DriverManager.getConnection(url, "sa", "");
        Statement s = admin.createStatement()) {
      s.execute("CREATE USER desk_a PASSWORD 'a-password'");
      for (String statement :
          StageOutLedgerDdl.script(StageOutLedgerDdl.Dialect.H2, List.of("desk_a")).split(";\n")) {
        if (!statement.isBlank()) {
          s.execute(
              statement.lines().filter(l -> !l.startsWith("--")).reduce("", (a, b) -> a + " " + b));
        }
      }
      try (Connection desk = DriverManager.getConnection(url, "desk_a", "a-password");
          Statement d = desk.createStatement()) {
        d.execute(
            "INSERT INTO gantry_stage_out_ledger VALUES ('j', 'k', 'c', 1, CURRENT_TIMESTAMP)");
        try (ResultSet rs = d.executeQuery("SELECT count(*) FROM gantry_stage_out_ledger")) {
          rs.next();
          assertEquals(1, rs.getLong(1));
        }
      }
    }
  }

  @Test
  void onlyPlainUserNamesAreWrittenIntoTheGrants() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            StageOutLedgerDdl.script(
                StageOutLedgerDdl.Dialect.H2, List.of("x; DROP TABLE result")));
  }
}
