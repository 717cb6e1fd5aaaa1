package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a PostgreSQL that checks passwords: a pooled connection is reused only for the same URL,
 * user and password, so a job with a wrong password meets a login, whatever ran before; and
 * stage-in runs in a read-only transaction, so a write the SQL checks missed still fails.
 */
class PooledCredentialsTest {
  @TempDir static Path hba;
  static EmbeddedPostgresServer postgres;
  static String url;
  @TempDir Path jobDir;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgresServer.startWithPasswords(hba);
    String db = postgres.createDatabase();
    url = postgres.jdbcUrl(db);
    try (Connection c = postgres.connect(db);
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE analyst LOGIN PASSWORD 'right-password'");
      s.execute("CREATE TABLE quote (id int, price numeric)");
      s.execute("INSERT INTO quote VALUES (1, 10.5), (2, 11.25)");
      s.execute("CREATE SEQUENCE ticket");
      s.execute("GRANT SELECT ON quote TO analyst");
      s.execute("GRANT USAGE, UPDATE ON SEQUENCE ticket TO analyst");
    }
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  private void stageIn(StagingGateway gateway, String password, String sql)
      throws StagingException {
    SqlExtract extract =
        new SqlExtract(
            DataSourceRef.inline(url, "analyst", password),
            1,
            sql,
            "out.csv",
            null,
            CreationFlag.OVERWRITE,
            false);
    gateway.stageIn(new StageInPlan(List.of(), List.of(extract)), jobDir, StagingListener.NONE);
  }

  private static StagingGateway gateway() {
    // TestCredentials hands an inline password token over as the password itself
    return new StagingGateway(
        new TestCredentials(),
        GatewayOptions.defaults().withRetries(Duration.ofSeconds(5), 1, Duration.ZERO));
  }

  @Test
  void aWrongPasswordFailsEvenRightAfterTheRightOneOpenedAPool() throws Exception {
    try (StagingGateway gateway = gateway()) {
      stageIn(gateway, "right-password", "SELECT id, price FROM quote ORDER BY id");
      assertEquals("id,price\n1,10.5\n2,11.25\n", Files.readString(jobDir.resolve("out.csv")));
      StagingException wrong =
          assertThrows(
              StagingException.class,
              () -> stageIn(gateway, "wrong-password", "SELECT id, price FROM quote ORDER BY id"));
      assertTrue(
          wrong.getMessage().contains("password authentication failed for user \"analyst\""),
          wrong.getMessage());
      stageIn(gateway, "right-password", "SELECT id FROM quote"); // the right one still works
    }
  }

  @Test
  void wrongPasswordsLeaveNoPoolsBehind() throws Exception {
    try (StagingGateway gateway =
        new StagingGateway(
            new TestCredentials(),
            GatewayOptions.defaults().withRetries(Duration.ofSeconds(1), 1, Duration.ZERO))) {
      for (int i = 0; i < 3; i++) {
        String guess = "guess-" + i;
        assertThrows(StagingException.class, () -> stageIn(gateway, guess, "SELECT id FROM quote"));
      }
      Await.value(
          "each refused credential's pool to be closed",
          Duration.ofSeconds(5),
          PooledCredentialsTest::poolThreads,
          threads -> threads == 0,
          threads -> threads + " pool threads");
    }
  }

  /**
   * HikariCP's threads of this gateway's pools (housekeeper, connection adder), named after the
   * pool.
   */
  private static long poolThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().contains("gantry-staging-jdbc_postgresql"))
        .count();
  }

  @Test
  void stageInCannotWriteEvenWhereTheAccountMay() throws Exception {
    try (StagingGateway gateway = gateway()) {
      StagingException e =
          assertThrows(
              StagingException.class,
              () -> stageIn(gateway, "right-password", "SELECT nextval('ticket')"));
      assertTrue(e.getMessage().contains("read-only transaction"), e.getMessage());
    }
  }
}
