package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.internal.bgzf.CompressedFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQL stage-in behaviour every supported database must show; subclasses supply the database. */
abstract class SqlStageInContract {
  @TempDir Path jobDir;
  TestDatabase db;
  StagingGateway gateway;
  final DataSourceRef market = DataSourceRef.named("market");

  abstract TestDatabase database();

  @BeforeEach
  void setUp() throws Exception {
    db = database();
    db.execute(
        "CREATE TABLE risk_factor (factor_id varchar(32) primary key, kind varchar(16), level decimal(20,10))",
        "INSERT INTO risk_factor VALUES ('EQ.ACME', 'equity', 101.2500000001), ('FX.EURUSD', 'fx', 1.0850000000),"
            + " ('IR.USD.1Y', 'rate', 0.0312500000)",
        "CREATE TABLE position (position_id varchar(32) primary key, factor_id varchar(32), quantity decimal(20,6),"
            + " maturity date)",
        "INSERT INTO position VALUES ('P1', 'EQ.ACME', 100.5, DATE '2027-06-30'), ('P2', 'EQ.ACME', -3, NULL),"
            + " ('P3', 'FX.EURUSD', 1000000, DATE '2026-12-31'), ('P4', 'IR.USD.1Y', 0.000001, NULL)");
    TestCredentials credentials = new TestCredentials().dataSource("market", db.spec("market"));
    gateway =
        new StagingGateway(
            credentials,
            GatewayOptions.defaults()
                .withBlockSize(1024)
                .withRetries(Duration.ofMillis(500), 2, Duration.ofMillis(50)));
  }

  @AfterEach
  void tearDown() {
    gateway.close();
  }

  SqlExtract extract(
      int group, String sql, String out, String in, CreationFlag flag, boolean compress) {
    return new SqlExtract(market, group, sql, out, in, flag, compress);
  }

  Manifest stageIn(SqlExtract... extracts) throws StagingException {
    return gateway.stageIn(
        new StageInPlan(List.of(), List.of(extracts)), jobDir, StagingListener.NONE);
  }

  @Test
  void twoGroupPlanBindsSecondGroupParametersFromFirstGroupOutput() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicLong rowsSoFar = new java.util.concurrent.atomic.AtomicLong();
    StagingListener listener =
        new StagingListener() {
          @Override
          public void groupStarted(String phase, int index, int count, int groupNumber) {
            events.add(phase + " " + index + "/" + count + " group " + groupNumber);
          }

          @Override
          public void progress(long rows, long bytes) {
            rowsSoFar.accumulateAndGet(rows, Math::max);
          }
        };
    StageInPlan plan =
        new StageInPlan(
            List.of(),
            List.of(
                extract(
                    11,
                    "SELECT factor_id, kind FROM risk_factor WHERE kind <> 'rate' ORDER BY factor_id",
                    "data/factors.csv.gz",
                    null,
                    CreationFlag.OVERWRITE,
                    true),
                extract(
                    11,
                    "SELECT count(*) AS n FROM position",
                    "data/count.csv",
                    null,
                    CreationFlag.OVERWRITE,
                    false),
                extract(
                    12,
                    "SELECT p.position_id, p.quantity, ? AS kind FROM position p WHERE p.factor_id = ?"
                        + " ORDER BY p.position_id",
                    "data/positions.csv.gz",
                    "data/factors-swapped.csv",
                    CreationFlag.OVERWRITE,
                    true)));
    // the second group's input is the first group's output with its columns in parameter order
    Files.createDirectories(jobDir.resolve("data"));
    Files.writeString(
        jobDir.resolve("data/factors-swapped.csv"),
        "kind,factor_id\nequity,EQ.ACME\nfx,FX.EURUSD\n");

    Manifest manifest = gateway.stageIn(plan, jobDir, listener);

    assertEquals(List.of("sql 1/2 group 11", "sql 2/2 group 12"), events);
    assertEquals(2 + 1 + 3, rowsSoFar.get(), "progress counts every row of every step");
    assertEquals(
        List.of(
            List.of("factor_id", "kind"), List.of("EQ.ACME", "equity"), List.of("FX.EURUSD", "fx")),
        lower(StagedFiles.readCsv(jobDir.resolve("data/factors.csv.gz"))));
    assertEquals(
        List.of(
            List.of("position_id", "quantity", "kind"),
            List.of("P1", "100.500000", "equity"),
            List.of("P2", "-3.000000", "equity"),
            List.of("P3", "1000000.000000", "fx")),
        lower(StagedFiles.readCsv(jobDir.resolve("data/positions.csv.gz"))));
    assertTrue(CompressedFiles.isGzip(jobDir.resolve("data/positions.csv.gz")));
    assertEquals(3, manifest.records().size());
    ManifestRecord positions =
        manifest.records().stream()
            .filter(r -> r.file().equals("data/positions.csv.gz"))
            .findFirst()
            .orElseThrow();
    assertEquals(3, positions.rows());
    assertEquals(Files.size(jobDir.resolve("data/positions.csv.gz")), positions.bytes());
    assertEquals(
        io.gantry.staging.internal.files.Checksums.sha256(jobDir.resolve("data/positions.csv.gz")),
        positions.sha256());
  }

  /** H2 reports labels in upper case; the test compares names case-insensitively. */
  static List<List<String>> lower(List<List<String>> csv) {
    List<List<String>> out = new ArrayList<>(csv);
    out.set(0, csv.get(0).stream().map(String::toLowerCase).toList());
    return out;
  }

  @Test
  void valuesSurviveWithoutLoss() throws Exception {
    db.execute(
        "CREATE TABLE tricky (id int, d decimal(30,12), note varchar(200), on_day date, at_time timestamp,"
            + " atz "
            + db.timestampTzType()
            + ", flag boolean, x double precision, raw "
            + db.binaryType()
            + ")");
    try (var c = db.connect();
        var ps = c.prepareStatement("INSERT INTO tricky VALUES (?,?,?,?,?,?,?,?,?)")) {
      ps.setInt(1, 1);
      ps.setBigDecimal(2, new java.math.BigDecimal("123456789012345678.000000000001"));
      ps.setString(3, "say \"hi\", then\nnew line, ünïcödé €");
      ps.setObject(4, java.time.LocalDate.of(1999, 12, 31));
      ps.setObject(5, java.time.LocalDateTime.of(2024, 2, 29, 23, 59, 0, 123_000_000));
      ps.setObject(6, java.time.OffsetDateTime.parse("2024-02-29T12:00:00Z"));
      ps.setBoolean(7, true);
      ps.setDouble(8, 0.1);
      ps.setBytes(9, new byte[] {0, 1, 2, (byte) 255});
      ps.executeUpdate();
      ps.setInt(1, 2);
      ps.setNull(2, java.sql.Types.DECIMAL);
      ps.setString(3, "");
      for (int i = 4; i <= 9; i++) {
        ps.setNull(
            i,
            c.getMetaData().getURL().startsWith("jdbc:h2")
                ? java.sql.Types.NULL
                : java.sql.Types.OTHER);
      }
      ps.executeUpdate();
      ps.setInt(1, 3);
      ps.setBigDecimal(2, new java.math.BigDecimal("-0.000000000001"));
      ps.setNull(3, java.sql.Types.VARCHAR);
      ps.executeUpdate();
    }

    stageIn(
        extract(
            1,
            "SELECT * FROM tricky ORDER BY id",
            "tricky.csv",
            null,
            CreationFlag.OVERWRITE,
            false));

    List<List<String>> csv = StagedFiles.readCsv(jobDir.resolve("tricky.csv"));
    assertEquals(
        Arrays.asList(
            "1",
            "123456789012345678.000000000001",
            "say \"hi\", then\nnew line, ünïcödé €",
            "1999-12-31",
            "2024-02-29T23:59:00.123",
            "2024-02-29T12:00:00Z",
            "true",
            "0.1",
            "AAEC/w=="),
        csv.get(1));
    assertEquals(Arrays.asList("2", null, "", null, null, null, null, null, null), csv.get(2));
    assertEquals(
        Arrays.asList("3", "-0.000000000001", null, null, null, null, null, null, null),
        csv.get(3));
    String text = Files.readString(jobDir.resolve("tricky.csv"), StandardCharsets.UTF_8);
    assertTrue(
        text.contains("\n2,,\"\",,"), "NULL is an empty field, the empty string is \"\": " + text);
  }

  @Test
  void boundValuesFillTheirMarkersAlsoBesideInputRowsAndStayData() throws Exception {
    // a template's values: marker 1 alone, and marker 2 beside an input column at marker 1
    SqlExtract alone =
        extract(
                1,
                "SELECT factor_id FROM risk_factor WHERE kind = ?",
                "fx.csv",
                null,
                CreationFlag.OVERWRITE,
                false)
            .withBoundValues(new BoundValues(new java.util.TreeMap<>(Map.of(1, "fx"))));
    SqlExtract attack =
        extract(
                1,
                "SELECT factor_id FROM risk_factor WHERE kind = ?",
                "none.csv",
                null,
                CreationFlag.OVERWRITE,
                false)
            .withBoundValues(new BoundValues(new java.util.TreeMap<>(Map.of(1, "fx' OR '1'='1"))));
    Files.writeString(jobDir.resolve("ids.csv"), "factor_id\nEQ.ACME\nFX.EURUSD\n");
    SqlExtract beside =
        extract(
                2,
                "SELECT factor_id FROM risk_factor WHERE factor_id = ? AND kind = ?",
                "equity.csv",
                "ids.csv",
                CreationFlag.OVERWRITE,
                true)
            .withBoundValues(new BoundValues(new java.util.TreeMap<>(Map.of(2, "equity"))));
    stageIn(alone, attack, beside);
    assertEquals(
        List.of(List.of("FX.EURUSD")), StagedFiles.readCsv(jobDir.resolve("fx.csv")).subList(1, 2));
    assertEquals(1, StagedFiles.readCsv(jobDir.resolve("none.csv")).size(), "only the header");
    List<List<String>> equity = StagedFiles.readCsv(jobDir.resolve("equity.csv"));
    assertEquals(List.of(List.of("EQ.ACME")), equity.subList(1, equity.size()));
  }

  @Test
  void overwriteReplacesTheFile() throws Exception {
    Files.writeString(jobDir.resolve("out.csv"), "old,content\n1,2\n3,4\n5,6\n");
    stageIn(
        extract(
            1,
            "SELECT factor_id FROM risk_factor WHERE kind = 'fx'",
            "out.csv",
            null,
            CreationFlag.OVERWRITE,
            false));
    assertEquals(2, StagedFiles.readCsv(jobDir.resolve("out.csv")).size());
    assertEquals(List.of("out.csv"), StagedFiles.listAll(jobDir));
  }

  @Test
  void appendAddsRowsWithoutASecondHeaderAlsoToACompressedFile() throws Exception {
    for (boolean compress : new boolean[] {false, true}) {
      String name = compress ? "factors.csv.gz" : "factors.csv";
      String sql = "SELECT factor_id, kind FROM risk_factor WHERE kind = ?";
      Files.writeString(jobDir.resolve("kinds-a.csv"), "kind\nequity\n");
      Files.writeString(jobDir.resolve("kinds-b.csv"), "kind\nfx\nrate\n");
      stageIn(extract(1, sql, name, "kinds-a.csv", CreationFlag.APPEND, compress));
      stageIn(extract(1, sql, name, "kinds-b.csv", CreationFlag.APPEND, compress));
      List<List<String>> csv = StagedFiles.readCsv(jobDir.resolve(name));
      assertEquals(4, csv.size(), name + ": one header, three rows: " + csv);
      assertEquals(
          List.of("EQ.ACME", "FX.EURUSD", "IR.USD.1Y"),
          csv.subList(1, 4).stream().map(r -> r.get(0)).toList());
    }
    assertTrue(gzipTest(jobDir.resolve("factors.csv.gz")), "gzip -t accepts the appended file");
  }

  @Test
  void appendToAFileWithoutAFinalLineBreakKeepsItsLastRowWhole() throws Exception {
    Files.writeString(jobDir.resolve("f.csv"), "factor_id\nHAND.MADE");
    stageIn(
        extract(
            1,
            "SELECT factor_id FROM risk_factor WHERE kind = 'fx'",
            "f.csv",
            null,
            CreationFlag.APPEND,
            false));
    assertEquals(
        "factor_id\nHAND.MADE\nFX.EURUSD\n",
        Files.readString(jobDir.resolve("f.csv")).replace("FACTOR_ID", "factor_id"));
  }

  @Test
  void appendRefusesAFileWithOtherColumns() throws Exception {
    Files.writeString(jobDir.resolve("f.csv"), "something_else\nx\n");
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    extract(
                        1,
                        "SELECT factor_id FROM risk_factor",
                        "f.csv",
                        null,
                        CreationFlag.APPEND,
                        false)));
    assertTrue(e.getMessage().contains("cannot append"), e.getMessage());
    assertEquals("something_else\nx\n", Files.readString(jobDir.resolve("f.csv")));
  }

  @Test
  void dontOverwriteFailsAndKeepsTheExistingFile() throws Exception {
    Files.writeString(jobDir.resolve("keep.csv"), "precious\n");
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    extract(
                        1,
                        "SELECT * FROM risk_factor",
                        "keep.csv",
                        null,
                        CreationFlag.DONT_OVERWRITE,
                        false)));
    assertTrue(e.getMessage().contains("dontOverwrite"), e.getMessage());
    assertEquals("precious\n", Files.readString(jobDir.resolve("keep.csv")));
    stageIn(
        extract(
            1, "SELECT * FROM risk_factor", "new.csv", null, CreationFlag.DONT_OVERWRITE, false));
    assertEquals(4, StagedFiles.readCsv(jobDir.resolve("new.csv")).size());
  }

  @Test
  void emptyInputFieldBindsNullAndABadNumberNamesTheLine() throws Exception {
    String sql =
        "SELECT position_id FROM position WHERE factor_id = ? AND quantity > COALESCE(?, -1000000000)"
            + " ORDER BY position_id";
    Files.writeString(jobDir.resolve("q.csv"), "factor_id,floor\nEQ.ACME,\nFX.EURUSD,5000000\n");
    stageIn(extract(1, sql, "p.csv", "q.csv", CreationFlag.OVERWRITE, false));
    assertEquals(
        List.of(List.of("P1"), List.of("P2")),
        StagedFiles.readCsv(jobDir.resolve("p.csv")).subList(1, 3));

    Files.writeString(jobDir.resolve("q-bad.csv"), "factor_id,floor\nEQ.ACME,1\nEQ.ACME,abc\n");
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(extract(1, sql, "p-bad.csv", "q-bad.csv", CreationFlag.OVERWRITE, false)));
    // the gateway or, where the driver cannot type the parameter, the database rejects it
    assertTrue(e.getMessage().contains("q-bad.csv line 3"), e.getMessage());
    assertTrue(e.getMessage().contains("abc"), e.getMessage());
    assertFalse(Files.exists(jobDir.resolve("p-bad.csv")));
  }

  @Test
  void aFailingStatementStopsThePlanAndNamesStatementSourceAndMessage() throws Exception {
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    extract(
                        1,
                        "SELECT factor_id FROM risk_factor",
                        "ok.csv",
                        null,
                        CreationFlag.OVERWRITE,
                        false),
                    extract(
                        1,
                        "SELECT no_such_column FROM risk_factor",
                        "bad.csv",
                        null,
                        CreationFlag.OVERWRITE,
                        false),
                    extract(
                        2,
                        "SELECT factor_id FROM risk_factor",
                        "later.csv",
                        null,
                        CreationFlag.OVERWRITE,
                        false)));
    assertTrue(e.getMessage().contains("bad.csv"), e.getMessage());
    assertTrue(e.getMessage().contains("'market'"), e.getMessage());
    assertTrue(
        e.getMessage().contains("statement [SELECT no_such_column FROM risk_factor]"),
        e.getMessage());
    // the database's own message: H2 says "not found", PostgreSQL "does not exist"
    assertTrue(
        e.getMessage().contains("not found") || e.getMessage().contains("does not exist"),
        e.getMessage());
    assertFalse(Files.exists(jobDir.resolve("bad.csv")));
    assertFalse(
        Files.exists(jobDir.resolve("later.csv")), "group 2 must not start after a failure");
    assertTrue(
        StagedFiles.listAll(jobDir).stream().noneMatch(n -> n.endsWith(".part")),
        StagedFiles.listAll(jobDir).toString());
  }

  @Test
  void namesOutsideTheJobDirectoryAreRefused(@TempDir Path outside) throws Exception {
    for (String name : List.of("../escape.csv", "/tmp/absolute.csv", "a/../../b.csv")) {
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      extract(
                          1,
                          "SELECT 1 AS x FROM risk_factor",
                          name,
                          null,
                          CreationFlag.OVERWRITE,
                          false)));
      assertTrue(e.getMessage().contains("SQLOutputFileName"), e.getMessage());
    }
    Files.createSymbolicLink(jobDir.resolve("link"), outside);
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    extract(
                        1,
                        "SELECT 1 AS x FROM risk_factor",
                        "link/x.csv",
                        null,
                        CreationFlag.OVERWRITE,
                        false)));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    try (var s = Files.list(outside)) {
      assertEquals(0, s.count());
    }
  }

  @Test
  void anUnreachableDatabaseIsRetriedThenReportedWithoutItsPassword() throws Exception {
    TestCredentials credentials =
        new TestCredentials()
            .dataSource(
                "gone",
                new DataSourceSpec(
                    "gone",
                    "jdbc:postgresql://127.0.0.1:1/nowhere?password=hunter2",
                    "u",
                    Secret.of("hunter2")));
    try (StagingGateway g =
        new StagingGateway(
            credentials,
            GatewayOptions.defaults()
                .withRetries(Duration.ofMillis(300), 2, Duration.ofMillis(10)))) {
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  g.stageIn(
                      new StageInPlan(
                          List.of(),
                          List.of(
                              new SqlExtract(
                                  DataSourceRef.named("gone"),
                                  1,
                                  "SELECT 1",
                                  "x.csv",
                                  null,
                                  CreationFlag.OVERWRITE,
                                  false))),
                      jobDir,
                      null));
      assertTrue(e.getMessage().contains("cannot connect to data source 'gone'"), e.getMessage());
      assertTrue(e.getMessage().contains("after 2 attempts"), e.getMessage());
      assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
      assertFalse(Files.exists(jobDir.resolve("x.csv")));
    }
  }

  static boolean gzipTest(Path file) throws Exception {
    Process p = new ProcessBuilder("gzip", "-t", file.toString()).redirectErrorStream(true).start();
    return p.waitFor() == 0;
  }
}
