package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.bench.BoundedMemoryBenchmark;
import io.gantry.staging.bench.StagingBenchmark;
import io.gantry.testing.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Staging runs in memory that does not grow with the data: a stage-in and a stage-out of far more
 * rows than the heap could hold, each in a child JVM whose heap is a fraction of the file (the
 * gateway's real code, as {@code BoundedMemoryBenchmark} runs it at 10,000,000 rows by hand). Were
 * the extract to hold its result set (a PostgreSQL driver without a fetch size buffers every row)
 * or either direction to hold the file, the child would end with an OutOfMemoryError and this test
 * with it. Both paths: PostgreSQL's COPY and plain JDBC (fetch size; batched inserts).
 */
class StagingMemoryBoundTest {
  /** About 66 MB of CSV: over twice the child's heap as text, many times it as driver rows. */
  private static final int ROWS = 600_000;

  private static final int CHILD_HEAP_MIB = 24;

  private static final String CHILD_HEAP = CHILD_HEAP_MIB + "m";

  @TempDir Path jobDir;

  @Test
  void aStageInAndAStageOutOfTwiceTheHeapRunInIt() throws Exception {
    EmbeddedPostgresServer server = EmbeddedPostgresServer.shared();
    String db = server.createDatabase();
    StagingBenchmark.load(server, db, ROWS);
    String url = server.jdbcUrl(db);
    TestDatabase tables = new TestDatabase("postgres", url, server.user());
    tables.execute("CREATE TABLE " + BoundedMemoryBenchmark.TARGET + " (LIKE trade)");

    assertStaged(
        BoundedMemoryBenchmark.child(CHILD_HEAP, "extract", url, server.user(), ROWS, jobDir));
    long csvBytes = StagingBenchmark.uncompressedSize(jobDir.resolve("trade.csv.gz"));
    assertTrue(
        csvBytes > 2L * CHILD_HEAP_MIB * 1024 * 1024,
        "the file must be more than twice the child's heap for this test to mean anything: "
            + csvBytes);
    assertStaged(
        BoundedMemoryBenchmark.child(CHILD_HEAP, "extract-jdbc", url, server.user(), ROWS, jobDir));
    assertEquals(
        StagingBenchmark.uncompressedSha256(jobDir.resolve("trade.csv.gz")),
        StagingBenchmark.uncompressedSha256(jobDir.resolve("trade-jdbc.csv.gz")),
        "both extract paths write the same CSV");

    for (String load : List.of("load", "load-jdbc")) {
      tables.execute("TRUNCATE " + BoundedMemoryBenchmark.TARGET);
      assertStaged(
          BoundedMemoryBenchmark.child(CHILD_HEAP, load, url, server.user(), ROWS, jobDir));
      assertEquals(
          fingerprint(tables, "trade"),
          fingerprint(tables, BoundedMemoryBenchmark.TARGET),
          load + ": the loaded table holds exactly the extracted rows");
    }
  }

  /** The child's own count of rows staged is every row. */
  private static void assertStaged(List<String> childLines) {
    assertTrue(childLines.contains("rows: " + ROWS), String.join("\n", childLines));
  }

  /** Rows, and an order-free digest of their text: equal for equal multisets of rows. */
  private static String fingerprint(TestDatabase tables, String table) throws Exception {
    try (Connection c = tables.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*), sum(hashtextextended(t::text, 0)::numeric) FROM "
                    + table
                    + " t")) {
      rs.next();
      return rs.getLong(1) + " rows, digest " + rs.getBigDecimal(2);
    }
  }
}
