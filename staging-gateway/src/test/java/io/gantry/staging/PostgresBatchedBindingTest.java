package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batched binding sends several input rows' executions per round trip to PostgreSQL; the file must
 * be the same bytes as with one round trip per row.
 */
class PostgresBatchedBindingTest {
  @TempDir Path jobDir;
  TestDatabase db;

  @BeforeEach
  void setUp() throws Exception {
    db = TestDatabase.postgres();
    db.execute(
        "CREATE TABLE tick (id int, book text, px numeric(12,4), f double precision, d date, ts timestamp,"
            + " note text)",
        "INSERT INTO tick SELECT g, 'B' || (g % 3), g * 1.5, g / 4.0, DATE '2024-01-01' + g,"
            + " TIMESTAMP '2024-01-01 00:00:00' + g * INTERVAL '90 minutes',"
            + " CASE WHEN g % 5 = 0 THEN NULL WHEN g % 7 = 0 THEN '' ELSE 'x,\"' || g || E'\\n' END"
            + " FROM generate_series(1, 2000) g");
  }

  byte[] extract(int batchRows, String sql, String input, boolean compress) throws Exception {
    String out = "out-" + batchRows + (compress ? ".csv.gz" : ".csv");
    try (StagingGateway g =
        new StagingGateway(
            new TestCredentials().dataSource("m", db.spec("m")),
            GatewayOptions.defaults().withBindBatchRows(batchRows))) {
      g.stageIn(
          new StageInPlan(
              List.of(),
              List.of(
                  new SqlExtract(
                      DataSourceRef.named("m"),
                      1,
                      sql,
                      out,
                      input,
                      CreationFlag.OVERWRITE,
                      compress))),
          jobDir,
          null);
    }
    return Files.readAllBytes(jobDir.resolve(out));
  }

  @Test
  void batchedRowsWriteTheSameBytesAsOneExecutionPerRowInInputOrder() throws Exception {
    StringBuilder ids = new StringBuilder("id,book\n");
    for (int i = 0; i < 500; i++) {
      int id = (i * 7919) % 2300; // out of order, repeated, some without rows (ids above 2000)
      ids.append(id).append(',').append(i % 11 == 0 ? "" : "B" + (id % 3)).append('\n');
    }
    Files.writeString(jobDir.resolve("ids.csv"), ids);
    String sql =
        "SELECT * FROM tick WHERE id = ? AND (book = ? OR CAST(? AS text) IS NULL) ORDER BY ts";
    String sqlTwo = "SELECT * FROM tick WHERE id = ? ORDER BY ts";
    byte[] perRow = extract(1, sqlTwo, "ids.csv", false);
    byte[] batched = extract(64, sqlTwo, "ids.csv", false);
    assertArrayEquals(perRow, batched);
    assertTrue(StagedFiles.readCsv(jobDir.resolve("out-64.csv")).size() > 300);
    byte[] perRowGz = extract(1, sqlTwo + ";", "ids.csv", true);
    byte[] batchedGz =
        extract(7, sqlTwo + ";", "ids.csv", true); // a final partial batch, a trailing ';'
    assertArrayEquals(perRowGz, batchedGz);
    assertEquals(
        StagedFiles.readCsv(jobDir.resolve("out-1.csv.gz")),
        StagedFiles.readCsv(jobDir.resolve("out-64.csv")));
    assertTrue(sql.contains("?")); // the three-parameter form is checked below
    Files.writeString(jobDir.resolve("three.csv"), "a,b,c\n3,B0,\n4,B1,B1\n6,,x\n");
    assertArrayEquals(extract(1, sql, "three.csv", false), extract(2, sql, "three.csv", false));
  }

  @Test
  void primaryKeyLookupsComeBackInInputOrderNotKeyOrder() throws Exception {
    db.execute(
        "CREATE TABLE instrument (id int primary key, book text, price numeric(14,6))",
        "INSERT INTO instrument SELECT g, 'BOOK-' || (g % 97), (g * 37 % 100000) / 64.0"
            + " FROM generate_series(1, 20000) g",
        "ANALYZE instrument");
    StringBuilder ids = new StringBuilder("id\n");
    for (int i = 0; i < 3000; i++) {
      ids.append((i * 7919L) % 20_000 + 1).append('\n');
    }
    Files.writeString(jobDir.resolve("ids.csv"), ids);
    String sql = "SELECT id, book, price FROM instrument WHERE id = ?";
    assertArrayEquals(extract(1, sql, "ids.csv", true), extract(500, sql, "ids.csv", true));
  }

  @Test
  void oneStatementOverAnArrayOfTextKeysKeepsEachKeysOrderAndTheInputOrder() throws Exception {
    // one text parameter: batches go as one statement over an array of keys; empty (NULL) and
    // repeated keys, a key with a quote, a question mark in a literal and a comment
    Files.writeString(jobDir.resolve("books.csv"), "book\nB2\nB0\n\nB2\nx'y\nB1\nnone\nB0\n");
    String sql =
        "SELECT id, note, '?' AS mark FROM tick -- which book?\n WHERE book = ? ORDER BY id DESC";
    assertArrayEquals(extract(1, sql, "books.csv", false), extract(3, sql, "books.csv", false));
    var rows = StagedFiles.readCsv(jobDir.resolve("out-3.csv"));
    assertEquals(
        1 + 2 * 667 + 2 * 666 + 667,
        rows.size()); // B2 twice, B0 twice, B1 once; NULL, x'y, none: no rows
    assertEquals("2000", rows.get(1).get(0)); // B2 first, its highest id first
  }
}
