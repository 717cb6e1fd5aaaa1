package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresSqlStageInTest extends SqlStageInContract {
  @Override
  TestDatabase database() {
    return TestDatabase.postgres();
  }

  @Test
  void theCopyFastPathWritesExactlyWhatTheJdbcPathWrites() throws Exception {
    db.execute(
        "CREATE TABLE mixed (id bigint, n numeric(30,10), s text, c char(3), d date, ts timestamp,"
            + " small smallint)",
        "INSERT INTO mixed VALUES (1, 12345678901234567890.0123456789, 'quote \" comma , newline\n end', 'ab',"
            + " DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:59.5', 7),"
            + " (2, -0.0000000001, '', NULL, NULL, TIMESTAMP '1999-01-01 00:00:00', NULL),"
            + " (3, NULL, NULL, 'xyz', DATE '2000-01-01', NULL, -32768),"
            + " (4, 0, 'ünïcödé € 漢字', '', DATE '1970-01-01', TIMESTAMP '2024-01-01 12:00:00.123456', 0)");
    String sql = "SELECT * FROM mixed ORDER BY id";
    stageIn(extract(1, sql, "copy.csv.gz", null, CreationFlag.OVERWRITE, true));
    try (StagingGateway jdbcOnly =
        new StagingGateway(
            new TestCredentials().dataSource("market", db.spec("market")),
            GatewayOptions.defaults().withPostgresCopy(false))) {
      jdbcOnly.stageIn(
          new StageInPlan(
              List.of(),
              List.of(extract(1, sql, "jdbc.csv.gz", null, CreationFlag.OVERWRITE, true))),
          jobDir,
          null);
    }
    // same values field for field; quoting may differ (Commons CSV also quotes edge spaces)
    assertEquals(
        StagedFiles.readCsv(jobDir.resolve("jdbc.csv.gz")),
        StagedFiles.readCsv(jobDir.resolve("copy.csv.gz")));
    assertEquals("ab ", StagedFiles.readCsv(jobDir.resolve("copy.csv.gz")).get(1).get(3));
    assertEquals(5, StagedFiles.readCsv(jobDir.resolve("copy.csv.gz")).size());
  }

  @Test
  void theJdbcPathWritesManyBatchesOfRowsInOrderByteForByteAsCopy() throws Exception {
    // more rows than one hand-off to the writing thread and one fetch of the driver hold; the
    // same block size as the contract's gateway, so the compressed files compare too
    db.execute(
        "CREATE TABLE series (id bigint, d date, s varchar(20), n numeric(12,3), ts timestamp)",
        "INSERT INTO series SELECT g, DATE '2020-01-01' + g % 900, 'S-' || g % 13,"
            + " g / 8.0, TIMESTAMP '2024-01-01 00:00:00' + g * INTERVAL '1.5 seconds'"
            + " FROM generate_series(1, 25000) g");
    String sql = "SELECT * FROM series ORDER BY id";
    stageIn(extract(1, sql, "copy.csv.gz", null, CreationFlag.OVERWRITE, true));
    try (StagingGateway jdbcOnly =
        new StagingGateway(
            new TestCredentials().dataSource("market", db.spec("market")),
            GatewayOptions.defaults().withBlockSize(1024).withPostgresCopy(false))) {
      jdbcOnly.stageIn(
          new StageInPlan(
              List.of(),
              List.of(extract(1, sql, "jdbc.csv.gz", null, CreationFlag.OVERWRITE, true))),
          jobDir,
          null);
    }
    byte[] copy = java.nio.file.Files.readAllBytes(jobDir.resolve("copy.csv.gz"));
    assertArrayEquals(copy, java.nio.file.Files.readAllBytes(jobDir.resolve("jdbc.csv.gz")));
    var rows = StagedFiles.readCsv(jobDir.resolve("jdbc.csv.gz"));
    assertEquals(25_001, rows.size());
    for (int i = 1; i < rows.size(); i++) {
      assertEquals(String.valueOf(i), rows.get(i).get(0));
    }
    assertEquals(List.of("1", "2020-01-02", "S-1", "0.125", "2024-01-01T00:00:01.5"), rows.get(1));
  }

  @Test
  void repeatedParameterisedExecutionsKeepTheSameValueSpelling() throws Exception {
    db.execute(
        "CREATE TABLE tick (id int, px numeric(12,4), f double precision, d date, ts timestamp)",
        "INSERT INTO tick SELECT g, g * 1.5, g / 4.0, DATE '2024-01-01' + g,"
            + " TIMESTAMP '2024-01-01 00:00:00' + g * INTERVAL '90 minutes' FROM generate_series(1, 10) g");
    StringBuilder ids = new StringBuilder("id\n");
    for (int i = 1; i <= 10; i++) {
      ids.append(i).append('\n'); // more executions than the driver's threshold for binary results
    }
    java.nio.file.Files.writeString(jobDir.resolve("ids.csv"), ids);
    stageIn(
        extract(
            1,
            "SELECT * FROM tick WHERE id = ?",
            "each.csv",
            "ids.csv",
            CreationFlag.OVERWRITE,
            false));
    var rows = StagedFiles.readCsv(jobDir.resolve("each.csv"));
    assertEquals(11, rows.size());
    assertEquals(
        List.of("10", "15.0000", "2.5", "2024-01-11", "2024-01-01T15:00:00"), rows.get(10));
    assertEquals(List.of("1", "1.5000", "0.25", "2024-01-02", "2024-01-01T01:30:00"), rows.get(1));
  }
}
