package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks before the computation against a real PostgreSQL with password authentication: a wrong
 * password is refused naming stage, step and data source but not the password, never answered from
 * the memory of a right one, and a success is remembered only for its time.
 */
class ConnectionCheckTest {
  @TempDir static Path hba;
  static EmbeddedPostgresServer postgres;
  static String db;
  static String url;

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-11-25T18:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgresServer.startWithPasswords(hba);
    db = postgres.createDatabase();
    url = postgres.jdbcUrl(db);
    sql("CREATE ROLE checker LOGIN PASSWORD 'right-password'");
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  static void sql(String statement) throws Exception {
    try (Connection c = postgres.connect(db);
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  static StageInPlan reading(String password) {
    return new StageInPlan(
        List.of(),
        List.of(
            new SqlExtract(
                DataSourceRef.inline(url, "checker", password),
                1,
                "SELECT 1",
                "out.csv",
                null,
                CreationFlag.OVERWRITE,
                false)));
  }

  static StageOutPlan writing(String password) {
    return new StageOutPlan(
        "job",
        List.of(
            new SqlLoad(
                DataSourceRef.inline(url, "checker", password),
                2,
                "INSERT INTO t VALUES (?)",
                "r.csv",
                SqlLoad.DEFAULT_BATCH_SIZE)),
        List.of());
  }

  static final StageOutPlan NO_STAGE_OUT = new StageOutPlan("job", List.of(), List.of());
  static final StageInPlan NO_STAGE_IN = new StageInPlan(List.of(), List.of());

  static ConnectionCheck check(TestClock clock) {
    // TestCredentials hands an inline password token over as the password itself
    return new ConnectionCheck(
        new TestCredentials(),
        ConnectionPolicy.unrestricted(),
        Duration.ofSeconds(5),
        Duration.ofSeconds(60),
        clock);
  }

  @Test
  void aWrongPasswordIsRefusedNamingStageStepAndDataSourceButNotThePassword() {
    ConnectionCheck check = check(new TestClock());
    assertEquals(List.of(), check.problems(reading("right-password"), NO_STAGE_OUT));
    List<String> refused = check.problems(NO_STAGE_IN, writing("wrong-password"));
    assertEquals(1, refused.size(), refused.toString());
    String problem = refused.get(0);
    assertTrue(
        problem.startsWith(
            "stage-out step SQL load of r.csv (group 2): cannot connect to data source '"),
        problem);
    assertTrue(problem.contains("the database refused the login of user checker"), problem);
    assertFalse(problem.contains("wrong-password"), problem);
    assertEquals(
        1,
        check.problems(reading("right-password"), writing("wrong-password")).size(),
        "the right one's success does not answer for the wrong one");
  }

  @Test
  void aSuccessIsRememberedForItsTimeAndThenCheckedAgain() throws Exception {
    TestClock clock = new TestClock();
    ConnectionCheck check = check(clock);
    sql("CREATE ROLE remembered LOGIN PASSWORD 'first'");
    StageInPlan first =
        new StageInPlan(
            List.of(),
            List.of(
                new SqlExtract(
                    DataSourceRef.inline(url, "remembered", "first"),
                    1,
                    "SELECT 1",
                    "out.csv",
                    null,
                    CreationFlag.OVERWRITE,
                    false)));
    assertEquals(List.of(), check.problems(first, NO_STAGE_OUT));
    sql("ALTER ROLE remembered PASSWORD 'second'");
    clock.now = clock.now.plusSeconds(59);
    assertEquals(List.of(), check.problems(first, NO_STAGE_OUT), "remembered for 60 s");
    clock.now = clock.now.plusSeconds(2);
    assertEquals(1, check.problems(first, NO_STAGE_OUT).size(), "then asked again");
  }

  @Test
  void anInlineDataSourceTheServerDoesNotAllowIsRefusedBeforeAnyConnection() {
    ConnectionCheck check =
        new ConnectionCheck(
            new TestCredentials(),
            ConnectionPolicy.of(false, List.of(), List.of(), List.of()),
            Duration.ofSeconds(5),
            Duration.ofSeconds(60),
            new TestClock());
    List<String> refused = check.problems(reading("right-password"), NO_STAGE_OUT);
    assertEquals(1, refused.size());
    assertTrue(refused.get(0).contains("inline data sources are turned off"), refused.get(0));
  }
}
