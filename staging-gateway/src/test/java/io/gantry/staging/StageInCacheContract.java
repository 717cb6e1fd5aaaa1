package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stage-in cache on a real database; subclasses supply H2 or PostgreSQL. */
abstract class StageInCacheContract {
  static final String POSITIONS =
      "SELECT position_id, factor_id, quantity FROM position ORDER BY position_id";
  static final CacheRule ONE_HOUR = new CacheRule(Duration.ofHours(1), null);

  @TempDir Path root;
  TestDatabase db;
  StagingGateway gateway;
  StageInCache cache;
  final DataSourceRef market = DataSourceRef.named("market");
  int jobs;

  abstract TestDatabase database();

  @BeforeEach
  void setUp() throws Exception {
    db = database();
    db.execute(
        "CREATE TABLE position (position_id varchar(32) primary key, factor_id varchar(32),"
            + " quantity decimal(20,6), updated_at timestamp)",
        "INSERT INTO position VALUES ('P1', 'EQ.ACME', 100.5, TIMESTAMP '2026-01-01 10:00:00'),"
            + " ('P2', 'FX.EURUSD', -3, TIMESTAMP '2026-01-01 10:00:00'), ('P3', 'IR.USD.1Y', 0.000001, NULL)",
        "CREATE TABLE factor_history (factor_id varchar(32), as_of date, level decimal(20,10))");
    cache = StageInCache.open(root.resolve("cache"), 1L << 30);
    gateway = gateway(cache);
  }

  StagingGateway gateway(StageInCache c) {
    StagingGateway g =
        new StagingGateway(
            new TestCredentials().dataSource("market", db.spec("market")),
            GatewayOptions.defaults()
                .withBlockSize(1024)
                .withRetries(Duration.ofMillis(500), 2, Duration.ofMillis(50)));
    return c == null ? g : g.useCache(c);
  }

  @AfterEach
  void tearDown() {
    gateway.close();
  }

  Path newJob() throws Exception {
    return Files.createDirectories(root.resolve("job" + ++jobs));
  }

  ManifestRecord stageIn(StagingGateway g, Path job, SqlExtract x) throws StagingException {
    return g.stageIn(new StageInPlan(List.of(), List.of(x)), job, StagingListener.NONE)
        .records()
        .get(0);
  }

  SqlExtract positions(CacheRule rule) {
    return new SqlExtract(
        market, 1, POSITIONS, "positions.csv.gz", null, CreationFlag.OVERWRITE, true, rule);
  }

  @Test
  void aSecondJobGetsTheCachedFileLinkedWithTheSameChecksum() throws Exception {
    Path a = newJob();
    Path b = newJob();
    ManifestRecord first = stageIn(gateway, a, positions(ONE_HOUR));
    db.execute(
        "UPDATE position SET quantity = 7 WHERE position_id = 'P1'"); // invisible to a valid entry
    ManifestRecord second = stageIn(gateway, b, positions(ONE_HOUR));
    assertEquals("sql-extract", first.kind());
    assertEquals(ManifestRecord.SQL_EXTRACT_CACHED, second.kind());
    assertTrue(second.cacheHit());
    assertEquals(first.sha256(), second.sha256());
    assertEquals(first.rows(), second.rows());
    assertArrayEquals(
        Files.readAllBytes(a.resolve("positions.csv.gz")),
        Files.readAllBytes(b.resolve("positions.csv.gz")));
    assertEquals(
        Files.getAttribute(a.resolve("positions.csv.gz"), "unix:ino"),
        Files.getAttribute(b.resolve("positions.csv.gz"), "unix:ino"),
        "linked, not copied");
    assertEquals(
        "r--r--r--",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(b.resolve("positions.csv.gz"))));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.directory())));
    assertEquals(1, cache.list().size());
    assertTrue(cache.list().get(0).inUse());
  }

  @Test
  void withoutARuleOrWithZeroValidityNothingIsCached() throws Exception {
    stageIn(gateway, newJob(), positions(null));
    stageIn(gateway, newJob(), positions(new CacheRule(Duration.ZERO, null)));
    ManifestRecord again =
        stageIn(gateway, newJob(), positions(new CacheRule(Duration.ZERO, null)));
    assertEquals("sql-extract", again.kind());
    assertTrue(cache.list().isEmpty());
  }

  @Test
  void anotherStatementOrCompressionIsAMiss() throws Exception {
    stageIn(gateway, newJob(), positions(ONE_HOUR));
    ManifestRecord other =
        stageIn(
            gateway,
            newJob(),
            new SqlExtract(
                market,
                1,
                POSITIONS + " DESC",
                "positions.csv.gz",
                null,
                CreationFlag.OVERWRITE,
                true,
                ONE_HOUR));
    ManifestRecord plain =
        stageIn(
            gateway,
            newJob(),
            new SqlExtract(
                market,
                1,
                POSITIONS,
                "positions.csv.gz",
                null,
                CreationFlag.OVERWRITE,
                false,
                ONE_HOUR));
    assertEquals("sql-extract", other.kind());
    assertEquals("sql-extract", plain.kind());
    assertEquals(3, cache.list().size());
  }

  @Test
  void anExpiredEntryIsExtractedAgain() throws Exception {
    CacheRule short_ = new CacheRule(Duration.ofMillis(300), null);
    stageIn(gateway, newJob(), positions(short_));
    db.execute("UPDATE position SET quantity = 7 WHERE position_id = 'P1'");
    Thread.sleep(400);
    Path job = newJob();
    ManifestRecord again = stageIn(gateway, job, positions(short_));
    assertEquals("sql-extract", again.kind());
    assertEquals("7.000000", StagedFiles.readCsv(job.resolve("positions.csv.gz")).get(1).get(2));
  }

  @Test
  void aChangedKeyQueryResultIsAMissAtOnce() throws Exception {
    CacheRule byUpdate = new CacheRule(null, "SELECT max(updated_at) FROM position");
    stageIn(gateway, newJob(), positions(byUpdate));
    assertTrue(stageIn(gateway, newJob(), positions(byUpdate)).cacheHit());
    db.execute(
        "UPDATE position SET quantity = 7, updated_at = TIMESTAMP '2026-01-01 11:00:00'"
            + " WHERE position_id = 'P1'");
    Path job = newJob();
    ManifestRecord changed = stageIn(gateway, job, positions(byUpdate));
    assertFalse(changed.cacheHit());
    assertEquals("7.000000", StagedFiles.readCsv(job.resolve("positions.csv.gz")).get(1).get(2));
  }

  @Test
  void aFailingKeyQueryFailsTheStepNamingTheKeyQuery() throws Exception {
    Path job = newJob();
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    gateway,
                    job,
                    positions(new CacheRule(null, "SELECT max(updated_at) FROM no_such_table"))));
    assertTrue(
        e.getMessage().contains("CacheKeyQuery [SELECT max(updated_at) FROM no_such_table] failed"),
        e.getMessage());
    assertFalse(Files.exists(job.resolve("positions.csv.gz")));
  }

  @Test
  void evictionUnderTheSizeLimitSparesAnEntryAJobStillLinks() throws Exception {
    gateway.close();
    StageInCache small =
        StageInCache.open(root.resolve("small"), 1); // every new entry passes the limit
    gateway = gateway(small);
    Path running = newJob();
    stageIn(gateway, running, positions(ONE_HOUR));
    Path other = newJob();
    stageIn(
        gateway,
        other,
        new SqlExtract(
            market,
            1,
            "SELECT factor_id FROM position ORDER BY factor_id",
            "factors.csv",
            null,
            CreationFlag.OVERWRITE,
            false,
            ONE_HOUR));
    assertEquals(2, small.list().size(), "both linked by a job: neither evicted");
    Files.delete(other.resolve("factors.csv")); // that job finished and its directory went away
    Files.delete(running.resolve("positions.csv.gz"));
    stageIn(
        gateway,
        newJob(),
        new SqlExtract(
            market,
            1,
            "SELECT position_id FROM position ORDER BY 1",
            "ids.csv",
            null,
            CreationFlag.OVERWRITE,
            false,
            ONE_HOUR));
    List<StageInCache.Entry> left = small.list();
    assertEquals(1, left.size(), "the unused entries were evicted");
    assertEquals("SELECT position_id FROM position ORDER BY 1", left.get(0).detail());
  }

  @Test
  void aDamagedEntryIsDroppedAndExtractedAgain() throws Exception {
    Path a = newJob();
    ManifestRecord first = stageIn(gateway, a, positions(ONE_HOUR));
    Files.delete(a.resolve("positions.csv.gz"));
    Path entry = cache.directory().resolve(cache.list().get(0).key());
    Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw-------"));
    byte[] bytes = Files.readAllBytes(entry);
    bytes[bytes.length / 2] ^= 0x55;
    Files.write(entry, bytes, StandardOpenOption.TRUNCATE_EXISTING);
    Path b = newJob();
    ManifestRecord again = stageIn(gateway, b, positions(ONE_HOUR));
    assertFalse(again.cacheHit());
    assertEquals(first.sha256(), again.sha256());
    assertEquals(
        first.sha256(),
        io.gantry.staging.internal.files.Checksums.sha256(b.resolve("positions.csv.gz")));
    assertTrue(
        stageIn(gateway, newJob(), positions(ONE_HOUR)).cacheHit(), "the new entry serves again");
  }

  @Test
  void twoConcurrentJobsWithTheSameKeyExtractOnce() throws Exception {
    db.execute(
        "INSERT INTO factor_history SELECT 'F' || MOD(x, 50), DATE '2020-01-01' + CAST(x / 50 AS int),"
            + " x / 7.0 FROM "
            + (db.kind().equals("postgres")
                ? "generate_series(1, 50000) AS g(x)"
                : "system_range(1, 50000) AS g(x)"));
    SqlExtract history =
        new SqlExtract(
            market,
            1,
            "SELECT * FROM factor_history ORDER BY factor_id, as_of",
            "history.csv.gz",
            null,
            CreationFlag.OVERWRITE,
            true,
            ONE_HOUR);
    ExecutorService two = Executors.newFixedThreadPool(2);
    try {
      List<Callable<ManifestRecord>> calls = new ArrayList<>();
      Path a = newJob();
      Path b = newJob();
      calls.add(() -> stageIn(gateway, a, history));
      calls.add(() -> stageIn(gateway, b, history));
      List<ManifestRecord> records = new ArrayList<>();
      for (Future<ManifestRecord> f : two.invokeAll(calls)) {
        records.add(f.get());
      }
      assertEquals(
          1, records.stream().filter(ManifestRecord::cacheHit).count(), records.toString());
      assertEquals(records.get(0).sha256(), records.get(1).sha256());
    } finally {
      two.shutdownNow();
    }
  }

  @Test
  void aUserNotAllowedOnTheDataSourceNeverGetsItsCachedRows() throws Exception {
    stageIn(gateway, newJob(), positions(ONE_HOUR));
    // the same cache behind a resolver that refuses 'market', as the server's does for such a user
    try (StagingGateway refusing =
        new StagingGateway(new TestCredentials(), GatewayOptions.defaults()).useCache(cache)) {
      Path job = newJob();
      StagingException e =
          assertThrows(StagingException.class, () -> stageIn(refusing, job, positions(ONE_HOUR)));
      assertTrue(e.getMessage().contains("market"), e.getMessage());
      assertFalse(Files.exists(job.resolve("positions.csv.gz")));
    }
    // another database account on the same URL is another key: a miss, never the first account's
    // rows
    DataSourceSpec otherAccount =
        new DataSourceSpec("market", db.jdbcUrl(), db.user(), Secret.of(""));
    try (StagingGateway asOther =
        new StagingGateway(
                new TestCredentials().dataSource("market-2", otherAccount),
                GatewayOptions.defaults())
            .useCache(cache)) {
      ManifestRecord r =
          stageIn(
              asOther,
              newJob(),
              new SqlExtract(
                  DataSourceRef.named("market-2"),
                  1,
                  POSITIONS,
                  "positions.csv.gz",
                  null,
                  CreationFlag.OVERWRITE,
                  true,
                  ONE_HOUR));
      assertFalse(r.cacheHit(), "another named source is another key");
    }
  }

  @Test
  void anInlineSourceWithAWrongPasswordGetsNoCachedRows() throws Exception {
    // the embedded PostgreSQL trusts loopback logins, so only H2 can refuse a password here
    org.junit.jupiter.api.Assumptions.assumeTrue(db.kind().equals("h2"));
    SqlExtract right =
        new SqlExtract(
            DataSourceRef.inline(db.jdbcUrl(), db.user(), ""),
            1,
            POSITIONS,
            "positions.csv.gz",
            null,
            CreationFlag.OVERWRITE,
            true,
            ONE_HOUR);
    stageIn(gateway, newJob(), right);
    assertTrue(stageIn(gateway, newJob(), right).cacheHit());
    SqlExtract wrong =
        new SqlExtract(
            DataSourceRef.inline(db.jdbcUrl(), db.user(), "not-the-password"),
            1,
            POSITIONS,
            "positions.csv.gz",
            null,
            CreationFlag.OVERWRITE,
            true,
            ONE_HOUR);
    Path job = newJob();
    assertThrows(StagingException.class, () -> stageIn(gateway, job, wrong));
    assertFalse(Files.exists(job.resolve("positions.csv.gz")));
  }

  @Test
  void aJobCannotWriteThroughItsLinkToACachedFile() throws Exception {
    Path a = newJob();
    stageIn(gateway, a, positions(ONE_HOUR));
    Path b = newJob();
    stageIn(gateway, b, positions(ONE_HOUR));
    // root ignores modes, so check what protects the entry: mode 0444 and an owner that is not the
    // job
    assertEquals(
        "r--r--r--",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(b.resolve("positions.csv.gz"))));
    if (!"root".equals(System.getProperty("user.name"))) {
      assertThrows(
          AccessDeniedException.class,
          () -> Files.write(b.resolve("positions.csv.gz"), new byte[1], StandardOpenOption.APPEND));
    }
  }

  @Test
  void resultsWithAndWithoutTheCacheAreIdentical() throws Exception {
    db.execute(
        "INSERT INTO factor_history VALUES ('EQ.ACME', DATE '2024-02-29', 101.25), ('EQ.ACME', DATE"
            + " '2024-03-01', NULL), ('FX.EURUSD', DATE '2024-02-29', 1.085)");
    Files.writeString(root.resolve("ids.csv"), "factor_id\nEQ.ACME\nFX.EURUSD\nNONE\n");
    SqlExtract bound =
        new SqlExtract(
            market,
            1,
            "SELECT * FROM factor_history WHERE factor_id = ? ORDER BY as_of",
            "history.csv.gz",
            "ids.csv",
            CreationFlag.OVERWRITE,
            true,
            ONE_HOUR);
    List<byte[]> outputs = new ArrayList<>();
    try (StagingGateway plain = gateway(null)) {
      for (StagingGateway g : List.of(plain, gateway, gateway)) {
        Path job = newJob();
        Files.copy(root.resolve("ids.csv"), job.resolve("ids.csv"));
        stageIn(g, job, bound);
        outputs.add(Files.readAllBytes(job.resolve("history.csv.gz")));
      }
    }
    assertArrayEquals(outputs.get(0), outputs.get(1));
    assertArrayEquals(outputs.get(0), outputs.get(2));
    assertEquals(1, cache.list().size());
    assertEquals(3, cache.list().get(0).rows());
  }
}
