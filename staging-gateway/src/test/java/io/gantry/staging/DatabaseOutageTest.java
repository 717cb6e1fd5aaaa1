package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real PostgreSQL going away in the middle of a plan, and a plan cancelled by interrupt. */
class DatabaseOutageTest {
  @TempDir Path jobDir;

  @Test
  void theDatabaseStoppingBetweenGroupsFailsTheSecondGroupClearlyAndLeavesNoPartialFile()
      throws Exception {
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
      String db = server.createDatabase();
      try (var c = server.connect(db);
          var s = c.createStatement()) {
        s.execute(
            "CREATE TABLE t AS SELECT g AS id, md5(g::text) AS h FROM generate_series(1, 5000) g");
      }
      DataSourceSpec spec =
          new DataSourceSpec("prices", server.jdbcUrl(db), server.user(), Secret.of(""));
      DataSourceRef ref = DataSourceRef.named("prices");
      StagingListener stopBeforeGroupTwo =
          new StagingListener() {
            @Override
            public void groupStarted(String phase, int index, int count, int groupNumber) {
              if (index == 2) {
                server.close();
              }
            }
          };
      try (StagingGateway gateway =
          new StagingGateway(
              new TestCredentials().dataSource("prices", spec),
              GatewayOptions.defaults()
                  .withRetries(Duration.ofMillis(500), 2, Duration.ofMillis(50)))) {
        StagingException e =
            assertThrows(
                StagingException.class,
                () ->
                    gateway.stageIn(
                        new StageInPlan(
                            List.of(),
                            List.of(
                                new SqlExtract(
                                    ref,
                                    1,
                                    "SELECT * FROM t",
                                    "first.csv.gz",
                                    null,
                                    CreationFlag.OVERWRITE,
                                    true),
                                new SqlExtract(
                                    ref,
                                    2,
                                    "SELECT * FROM t",
                                    "second.csv.gz",
                                    null,
                                    CreationFlag.OVERWRITE,
                                    true))),
                        jobDir,
                        stopBeforeGroupTwo));
        assertTrue(e.getMessage().contains("second.csv.gz"), e.getMessage());
        assertTrue(e.getMessage().contains("'prices'"), e.getMessage());
      }
      assertEquals(
          5001, StagedFiles.readCsv(jobDir.resolve("first.csv.gz")).size(), "group 1 is complete");
      assertFalse(Files.exists(jobDir.resolve("second.csv.gz")));
      assertEquals(List.of("first.csv.gz"), StagedFiles.listAll(jobDir));
    }
  }

  @Test
  void theDatabaseStoppingWhileRowsStreamFailsTheStepAndLeavesNoPartialFile() throws Exception {
    for (boolean copyPath : new boolean[] {true, false}) {
      try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
        String db = server.createDatabase();
        try (var c = server.connect(db);
            var s = c.createStatement()) {
          s.execute(
              "CREATE TABLE t AS SELECT g AS id, md5(g::text) AS h FROM generate_series(1, 300000) g");
        }
        DataSourceSpec spec =
            new DataSourceSpec("prices", server.jdbcUrl(db), server.user(), Secret.of(""));
        StagingListener stopOnFirstProgress =
            new StagingListener() {
              @Override
              public void progress(long rowsSoFar, long bytesSoFar) {
                server.close(); // the first rows are out; the server goes away mid-statement
              }
            };
        try (StagingGateway gateway =
            new StagingGateway(
                new TestCredentials().dataSource("prices", spec),
                GatewayOptions.defaults()
                    .withPostgresCopy(copyPath)
                    .withRetries(Duration.ofMillis(500), 1, Duration.ofMillis(50)))) {
          StagingException e =
              assertThrows(
                  StagingException.class,
                  () ->
                      gateway.stageIn(
                          new StageInPlan(
                              List.of(),
                              List.of(
                                  new SqlExtract(
                                      DataSourceRef.named("prices"),
                                      1,
                                      "SELECT * FROM t",
                                      "t.csv.gz",
                                      null,
                                      CreationFlag.OVERWRITE,
                                      true))),
                          jobDir,
                          stopOnFirstProgress));
          assertTrue(e.getMessage().contains("'prices'"), e.getMessage());
        }
        assertEquals(List.of(), StagedFiles.listAll(jobDir), copyPath ? "COPY path" : "JDBC path");
      }
    }
  }

  @Test
  void interruptingTheCallerCancelsALongQueryAndLeavesNoFile() throws Exception {
    EmbeddedPostgresServer server = EmbeddedPostgresServer.shared();
    String db = server.createDatabase();
    DataSourceSpec spec =
        new DataSourceSpec("slow", server.jdbcUrl(db), server.user(), Secret.of(""));
    try (StagingGateway gateway =
        new StagingGateway(
            new TestCredentials().dataSource("slow", spec), GatewayOptions.defaults())) {
      Thread caller = Thread.currentThread();
      Thread interrupter =
          new Thread(
              () -> {
                try {
                  Thread.sleep(1500);
                } catch (InterruptedException e) {
                  return;
                }
                caller.interrupt();
              });
      interrupter.start();
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  gateway.stageIn(
                      new StageInPlan(
                          List.of(),
                          List.of(
                              new SqlExtract(
                                  DataSourceRef.named("slow"),
                                  1,
                                  "SELECT pg_sleep(60), 1 AS x",
                                  "slow.csv",
                                  null,
                                  CreationFlag.OVERWRITE,
                                  false))),
                      jobDir,
                      null));
      assertTrue(Thread.interrupted(), "the interrupt flag is kept for the caller");
      interrupter.join();
      assertTrue(e.getMessage().contains("cancelled"), e.getMessage());
      assertEquals(List.of(), StagedFiles.listAll(jobDir));
    }
  }
}
