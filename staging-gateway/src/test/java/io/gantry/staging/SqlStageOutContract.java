package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQL stage-out behaviour every supported database must show; subclasses supply the database. */
abstract class SqlStageOutContract {
  @TempDir Path jobDir;
  TestDatabase db;
  StagingGateway gateway;
  final DataSourceRef results = DataSourceRef.named("results");

  abstract TestDatabase database();

  @BeforeEach
  void setUp() throws Exception {
    db = database();
    db.execute(
        "CREATE TABLE var_summary (run_id varchar(64), confidence decimal(6,4), var decimal(24,8),"
            + " note varchar(200), computed_at timestamp, primary key (run_id, confidence))");
    gateway =
        new StagingGateway(
            new TestCredentials().dataSource("results", db.spec("results")),
            GatewayOptions.defaults()
                .withBlockSize(1024)
                .withRetries(Duration.ofMillis(500), 2, Duration.ofMillis(50)));
  }

  @AfterEach
  void tearDown() {
    gateway.close();
  }

  static final String INSERT =
      "INSERT INTO var_summary (run_id, confidence, var, note, computed_at) VALUES (?, ?, ?, ?, ?)";

  Manifest stageOut(String jobId, SqlLoad... loads) throws StagingException {
    return gateway.stageOut(
        new StageOutPlan(jobId, List.of(loads), List.of()), jobDir, StagingListener.NONE);
  }

  void writeSummary(String name, int rows, boolean compressed) throws Exception {
    StringBuilder csv = new StringBuilder("run_id,confidence,var,note,computed_at\n");
    for (int i = 0; i < rows; i++) {
      csv.append("run-1,0.")
          .append(String.format("%04d", i))
          .append(",")
          .append(i)
          .append(".12345678,");
      csv.append(
          i % 3 == 0
              ? ""
              : i % 3 == 1 ? "\"\"" : "\"note \"\"" + i + "\"\", ünïcödé\nsecond line\"");
      csv.append(",2026-11-20T18:30:0").append(i % 10).append("\n");
    }
    byte[] bytes = csv.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    if (compressed) {
      var out = new java.io.ByteArrayOutputStream();
      try (var w = new io.gantry.staging.internal.bgzf.BlockGzipWriter(out, null, 1, 1024, 1)) {
        w.write(bytes);
      }
      bytes = out.toByteArray();
    }
    Files.write(jobDir.resolve(name), bytes);
  }

  List<List<String>> table(String sql) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  long count() throws Exception {
    return Long.parseLong(table("SELECT count(*) FROM var_summary").get(0).get(0));
  }

  @Test
  void loadsACompressedCsvInBatchesKeepingNullsEmptyStringsAndDecimals() throws Exception {
    writeSummary("summary.csv.gz", 2500, true);
    Manifest m = stageOut("job-1", new SqlLoad(results, 1, INSERT, "summary.csv.gz", 1000));
    assertEquals(2500, m.records().get(0).rows());
    assertEquals(2500, count());
    assertEquals(
        Arrays.asList("run-1", "0.0000", "0.12345678", null),
        table("SELECT run_id, confidence, var, note FROM var_summary WHERE confidence = 0").get(0));
    assertEquals(
        List.of(""), table("SELECT note FROM var_summary WHERE confidence = 0.0001").get(0));
    assertEquals(
        List.of("note \"2\", ünïcödé\nsecond line"),
        table("SELECT note FROM var_summary WHERE confidence = 0.0002").get(0));
  }

  @Test
  void aStageOutFileReplacedByALinkToAFileOutsideTheJobDirectoryIsNotLoaded(@TempDir Path outside)
      throws Exception {
    writeSummary("summary.csv", 3, false);
    Path secret = Files.move(jobDir.resolve("summary.csv"), outside.resolve("someone-elses.csv"));
    Files.createSymbolicLink(jobDir.resolve("summary.csv"), secret);
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageOut("job-link", new SqlLoad(results, 1, INSERT, "summary.csv", 100)));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    assertEquals(0, count());
  }

  @Test
  void aStageOutDirectoryReplacedByALinkIsNotFollowed(@TempDir Path outside) throws Exception {
    writeSummary("summary.csv", 3, false);
    Files.move(jobDir.resolve("summary.csv"), outside.resolve("summary.csv"));
    Files.createSymbolicLink(jobDir.resolve("results"), outside);
    assertThrows(
        StagingException.class,
        () -> stageOut("job-dirlink", new SqlLoad(results, 1, INSERT, "results/summary.csv", 100)));
    assertEquals(0, count());
  }

  @Test
  void aFifoInsteadOfAStageOutFileFailsAtOnce() throws Exception {
    assertEquals(
        0,
        new ProcessBuilder("mkfifo", jobDir.resolve("summary.csv").toString()).start().waitFor());
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          StagingException e =
              assertThrows(
                  StagingException.class,
                  () -> stageOut("job-fifo", new SqlLoad(results, 1, INSERT, "summary.csv", 100)));
          assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
        });
  }

  @Test
  void runningTheSameStageOutTwiceDoesNotDuplicateRows() throws Exception {
    writeSummary("summary.csv", 50, false);
    SqlLoad load = new SqlLoad(results, 1, INSERT, "summary.csv", 7);
    stageOut("job-2", load);
    Manifest again = stageOut("job-2", load);
    assertTrue(again.records().get(0).skipped(), "the ledger says it is done");
    assertEquals(50, again.records().get(0).rows());
    assertEquals(50, count());
  }

  @Test
  void aChangedFileForAnAlreadyCommittedStepIsRefused() throws Exception {
    writeSummary("summary.csv", 5, false);
    SqlLoad load = new SqlLoad(results, 1, INSERT, "summary.csv", 100);
    stageOut("job-3", load);
    writeSummary("summary.csv", 6, false);
    StagingException e = assertThrows(StagingException.class, () -> stageOut("job-3", load));
    assertTrue(
        e.getMessage().contains("already committed this step with a different file"),
        e.getMessage());
    assertEquals(5, count());
  }

  @Test
  void aBadRowLeavesTheTableAsItWas() throws Exception {
    db.execute("INSERT INTO var_summary VALUES ('before', 0.5, 1, 'kept', NULL)");
    writeSummary("summary.csv", 30, false);
    Files.writeString(
        jobDir.resolve("summary.csv"),
        "run-1,0.9999,not-a-number,x,\n",
        java.nio.file.StandardOpenOption.APPEND);
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageOut("job-4", new SqlLoad(results, 1, INSERT, "summary.csv", 10)));
    // header + 30 rows, ten of which hold a line break inside a quoted field: the bad row is line
    // 42
    assertTrue(e.getMessage().contains("summary.csv line 42"), e.getMessage());
    assertTrue(e.getMessage().contains("nothing was written"), e.getMessage());
    assertEquals(List.of(List.of("before")), table("SELECT run_id FROM var_summary"));
  }

  @Test
  void aConstraintViolationInALaterBatchRollsBackEarlierBatches() throws Exception {
    writeSummary("summary.csv", 40, false);
    Files.writeString(
        jobDir.resolve("summary.csv"),
        "run-1,0.0001,1,duplicate key,\n",
        java.nio.file.StandardOpenOption.APPEND);
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageOut("job-5", new SqlLoad(results, 1, INSERT, "summary.csv", 10)));
    assertTrue(e.getMessage().contains("'results'"), e.getMessage());
    assertEquals(0, count());
    // the failed step was not recorded, so a corrected file loads on the next run
    writeSummary("summary.csv", 40, false);
    stageOut("job-5", new SqlLoad(results, 1, INSERT, "summary.csv", 10));
    assertEquals(40, count());
  }

  @Test
  void updateAndMergeStatementsAreBoundLikeInserts() throws Exception {
    writeSummary("summary.csv", 3, false);
    stageOut("job-6", new SqlLoad(results, 1, INSERT, "summary.csv", 100));
    Files.writeString(
        jobDir.resolve("notes.csv"),
        "note,run_id,confidence\nfirst,run-1,0.0000\n\"\",run-1,0.0001\n");
    Files.writeString(
        jobDir.resolve("merge.csv"), "run_id,confidence,var\nrun-1,0.0002,42.5\nrun-2,0.9900,7\n");
    String merge =
        "MERGE INTO var_summary t USING (SELECT CAST(? AS varchar(64)) AS run_id,"
            + " CAST(? AS decimal(6,4)) AS confidence, CAST(? AS decimal(24,8)) AS var) s"
            + " ON t.run_id = s.run_id AND t.confidence = s.confidence"
            + " WHEN MATCHED THEN UPDATE SET var = s.var"
            + " WHEN NOT MATCHED THEN INSERT (run_id, confidence, var) VALUES (s.run_id, s.confidence, s.var)";
    stageOut(
        "job-6",
        new SqlLoad(
            results,
            2,
            "UPDATE var_summary SET note = ? WHERE run_id = ? AND confidence = ?",
            "notes.csv",
            100),
        new SqlLoad(results, 3, merge, "merge.csv", 100));
    assertEquals(
        List.of(List.of("first"), List.of(""), List.of("note \"2\", ünïcödé\nsecond line")),
        table("SELECT note FROM var_summary WHERE run_id = 'run-1' ORDER BY confidence"));
    assertEquals(
        List.of(List.of("42.50000000"), List.of("7.00000000")),
        table(
            "SELECT var FROM var_summary WHERE confidence IN (0.0002, 0.99) ORDER BY confidence"));
  }

  @Test
  void extractedRowsLoadBackUnchanged() throws Exception {
    writeSummary("summary.csv", 100, false);
    stageOut("job-7", new SqlLoad(results, 1, INSERT, "summary.csv", 33));
    gateway.stageIn(
        new StageInPlan(
            List.of(),
            List.of(
                new SqlExtract(
                    results,
                    1,
                    "SELECT run_id, confidence, var, note, computed_at FROM var_summary ORDER BY confidence",
                    "copy.csv.gz",
                    null,
                    CreationFlag.OVERWRITE,
                    true))),
        jobDir,
        null);
    db.execute("CREATE TABLE var_copy AS SELECT * FROM var_summary WHERE 1 = 0");
    stageOut(
        "job-7",
        new SqlLoad(results, 1, INSERT.replace("var_summary", "var_copy"), "copy.csv.gz", 33));
    String order = " ORDER BY confidence";
    assertEquals(
        table("SELECT * FROM var_summary" + order), table("SELECT * FROM var_copy" + order));
  }

  @Test
  void aRowWithTheWrongNumberOfFieldsIsReportedWithItsLine() throws Exception {
    Files.writeString(
        jobDir.resolve("short.csv"),
        "run_id,confidence,var,note,computed_at\nrun-1,0.5,1,x,\nrun-1,0.6\n");
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageOut("job-8", new SqlLoad(results, 1, INSERT, "short.csv", 100)));
    assertTrue(e.getMessage().contains("short.csv line 3 has 2 fields"), e.getMessage());
    assertEquals(0, count());
    assertFalse(e.getMessage().isBlank());
  }
}
