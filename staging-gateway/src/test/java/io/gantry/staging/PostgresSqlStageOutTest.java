package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The stage-out contract on PostgreSQL, where one-row INSERTs take the COPY path (a staging table,
 * then the statement over it); plus what only that path can meet.
 */
class PostgresSqlStageOutTest extends SqlStageOutContract {
  @Override
  TestDatabase database() {
    return TestDatabase.postgres();
  }

  /**
   * The database connection dies after COPY has sent every row and while the load waits (on a row
   * lock another transaction holds), before the commit: as if the server crashed there. Nothing is
   * left behind, and the step run again loads each row exactly once. Here the statement only hands
   * fields to columns, so COPY goes straight into the table and waits itself.
   */
  @Test
  void aCrashBetweenCopyAndCommitLoadsEachRowOnceOnRetry() throws Exception {
    crashBetweenCopyAndCommit(INSERT, "COPY var_summary %");
  }

  /** The same where an expression needs the staging table: the statement over it waits. */
  @Test
  void aCrashBetweenStagingAndCommitLoadsEachRowOnceOnRetry() throws Exception {
    crashBetweenCopyAndCommit(
        "INSERT INTO var_summary (run_id, confidence, var, note, computed_at)"
            + " VALUES (?, ?, CAST(? AS decimal(24,8)), ?, ?)",
        "INSERT INTO var_summary %gantry_stage_out_rows%");
  }

  /** A template value and expressions: the staged rows fill the markers the file fills. */
  @Test
  void boundValuesAndExpressionsLoadThroughTheStagingTable() throws Exception {
    Files.writeString(
        jobDir.resolve("bound.csv"), "confidence,var,note\n0.5,1.5,x\n0.9,2.5,\n0.95,3,\"\"\n");
    SqlLoad load =
        new SqlLoad(
            results,
            1,
            "INSERT INTO var_summary (run_id, confidence, var, note) VALUES (?, ?, CAST(? AS numeric) * 2, upper(?))",
            "bound.csv",
            10,
            new BoundValues(new java.util.TreeMap<>(java.util.Map.of(1, "run-T"))));
    assertEquals(3, stageOut("job-bound", load).records().get(0).rows());
    assertEquals(
        List.of(
            java.util.Arrays.asList("run-T", "3.00000000", "X"),
            java.util.Arrays.asList("run-T", "5.00000000", null),
            java.util.Arrays.asList("run-T", "6.00000000", "")),
        table("SELECT run_id, var, note FROM var_summary ORDER BY confidence"));
  }

  private void crashBetweenCopyAndCommit(String statement, String waitingQuery) throws Exception {
    writeSummary("summary.csv", 400, false);
    SqlLoad load = new SqlLoad(results, 1, statement, "summary.csv", 50);
    CompletableFuture<Manifest> first;
    try (Connection blocker = db.connect();
        Connection watcher = db.connect()) {
      blocker.setAutoCommit(false);
      try (Statement s = blocker.createStatement()) {
        // the file's last key: the load waits for this transaction to end
        s.execute("INSERT INTO var_summary (run_id, confidence) VALUES ('run-1', 0.0399)");
      }
      first = CompletableFuture.supplyAsync(() -> stageOutUnchecked("job-crash", load));
      int pid =
          Await.value(
              "the load waiting on the row lock",
              Duration.ofSeconds(30),
              () -> waitingLoad(watcher, waitingQuery),
              p -> p > 0 || first.isDone());
      assertTrue(pid > 0, () -> "the load ended before it waited: " + first.join());
      try (Statement s = watcher.createStatement()) {
        s.execute("SELECT pg_terminate_backend(" + pid + ")");
      }
      ExecutionException crashed =
          assertThrows(
              ExecutionException.class,
              () -> first.get(Await.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS));
      assertTrue(
          crashed.getCause().getMessage().contains("nothing was written"),
          crashed.getCause().getMessage());
      blocker.rollback();
    }
    assertEquals(0, count(), "the killed transaction left no row");
    assertEquals(0, ledgerRows("job-crash"));

    Manifest retried = stageOut("job-crash", load);
    assertEquals(400, retried.records().get(0).rows());
    assertEquals(400, count());
    assertEquals(
        List.of(List.of("400")),
        table("SELECT count(DISTINCT confidence) FROM var_summary"),
        "each row once");
    assertEquals(1, ledgerRows("job-crash"));
    assertTrue(stageOut("job-crash", load).records().get(0).skipped());
    assertEquals(400, count());
  }

  /**
   * A line of just {@code \.} inside a quoted field would end COPY's data early: such a file goes
   * the JDBC path, and every row arrives.
   */
  @Test
  void aLineThatWouldEndCopyEarlyStillLoadsEveryRow() throws Exception {
    Files.writeString(
        jobDir.resolve("dots.csv"),
        "run_id,confidence,var,note,computed_at\n"
            + "run-1,0.1,1,\"before\n\\.\nafter\",\n"
            + "run-1,0.2,2,last,\n");
    Manifest m = stageOut("job-dots", new SqlLoad(results, 1, INSERT, "dots.csv", 10));
    assertEquals(2, m.records().get(0).rows());
    assertEquals(
        List.of(List.of("before\n\\.\nafter"), List.of("last")),
        table("SELECT note FROM var_summary ORDER BY confidence"));
  }

  /** A value PostgreSQL cannot read is reported naming its line, as on the JDBC path. */
  @Test
  void aBadValueOnTheCopyPathNamesItsLineAndParameter() throws Exception {
    Files.writeString(
        jobDir.resolve("bad.csv"),
        "run_id,confidence,var,note,computed_at\n"
            + "run-1,0.1,1,x,2026-11-20T18:30:00\n"
            + "run-1,0.2,2,y,not-a-time\n");
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageOut("job-bad", new SqlLoad(results, 1, INSERT, "bad.csv", 10)));
    assertTrue(e.getMessage().contains("bad.csv line 3, parameter 5"), e.getMessage());
    assertEquals(0, count());
  }

  private Manifest stageOutUnchecked(String jobId, SqlLoad load) {
    try {
      return stageOut(jobId, load);
    } catch (StagingException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static int waitingLoad(Connection watcher, String query) throws Exception {
    try (var ps =
        watcher.prepareStatement(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ?")) {
      ps.setString(1, query);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
  }

  private long ledgerRows(String jobId) throws Exception {
    return Long.parseLong(
        table(
                "SELECT count(*) FROM gantry_stage_out_ledger WHERE job_id = '"
                    + jobId.replace("'", "''")
                    + "'")
            .get(0)
            .get(0));
  }
}
