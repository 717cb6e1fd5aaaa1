package io.gantry.staging.bench;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.Manifest;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.Secret;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.SqlLoad;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import io.gantry.staging.StagingGateway;
import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.testing.EmbeddedPostgresServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/**
 * The staging benchmark (run by {@code staging-gateway/bench/run}): extraction of about a million
 * rows (~100 MB of CSV) from a real PostgreSQL into a blocked-gzip file, against {@code psql \copy
 * ... | gzip -1} on the same database, then stage-out of the rows into a table. Prints {@code name:
 * value} lines. Each side runs two or three times after a warm-up; the fastest run counts. {@code
 * GANTRY_BENCH_ONLY=extract} stops after the extraction.
 */
public final class StagingBenchmark {
  static final String QUERY = "SELECT * FROM trade ORDER BY trade_id";

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    Path work = Files.createTempDirectory("gantry-bench");
    System.out.println("load_before: " + loadAverage());
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
      String db = server.createDatabase();
      load(server, db, rows);
      DataSourceSpec spec =
          new DataSourceSpec(
              "bench",
              server.jdbcUrl(db) + "?reWriteBatchedInserts=true",
              server.user(),
              Secret.of(""));
      CredentialResolver credentials = onlyDataSource(spec);
      DataSourceRef ref = DataSourceRef.named("bench");
      try (StagingGateway gateway = new StagingGateway(credentials, GatewayOptions.defaults())) {
        StageInPlan plan =
            new StageInPlan(
                List.of(),
                List.of(
                    new SqlExtract(
                        ref, 1, QUERY, "trade.csv.gz", null, CreationFlag.OVERWRITE, true)));
        gateway.stageIn(plan, work, null); // warm-up: JIT, pools, PostgreSQL buffer cache
        double ours = Double.MAX_VALUE;
        Manifest best = null;
        for (int i = 0; i < 2; i++) {
          long t0 = System.nanoTime();
          Manifest m = gateway.stageIn(plan, work, null);
          double s = (System.nanoTime() - t0) / 1e9;
          if (s < ours) {
            ours = s;
            best = m;
          }
        }
        long csvBytes = uncompressedSize(work.resolve("trade.csv.gz"));
        StageInPlan jdbcPlan =
            new StageInPlan(
                List.of(),
                List.of(
                    new SqlExtract(
                        ref, 1, QUERY, "trade-jdbc.csv.gz", null, CreationFlag.OVERWRITE, true)));
        // the JDBC path and psql alternate, three times each after a warm-up, so that a burst of
        // load from elsewhere slows both alike; the faster of each counts
        double jdbcPath = Double.MAX_VALUE;
        double jdbcCpu = 0;
        double psql = Double.MAX_VALUE;
        double psqlCpu = 0;
        try (StagingGateway jdbcOnly =
            new StagingGateway(credentials, GatewayOptions.defaults().withPostgresCopy(false))) {
          jdbcOnly.stageIn(jdbcPlan, work, null); // warm-up
          try (JdbcPathProfile profile = JdbcPathProfile.startIfAsked()) {
            for (int i = 0; i < 3; i++) {
              long t0 = System.nanoTime();
              double cpu0 = ownCpuSeconds();
              jdbcOnly.stageIn(jdbcPlan, work, null);
              double s = (System.nanoTime() - t0) / 1e9;
              if (s < jdbcPath) {
                jdbcPath = s;
                jdbcCpu = ownCpuSeconds() - cpu0;
              }
              profile.pause();
              cpu0 = childrenCpuSeconds();
              s = psqlGzip(server, db, work.resolve("psql.csv.gz"));
              if (s < psql) {
                psql = s;
                psqlCpu = childrenCpuSeconds() - cpu0;
              }
              profile.resume();
            }
          }
        }
        long extracted = best.records().get(0).rows();
        System.out.println("rows: " + extracted);
        System.out.printf("csv_mb: %.1f%n", csvBytes / 1e6);
        System.out.printf("gantry_extract_seconds: %.3f%n", ours);
        System.out.printf("gantry_extract_rows_per_s: %.0f%n", extracted / ours);
        System.out.printf("gantry_extract_mb_per_s: %.1f%n", csvBytes / 1e6 / ours);
        System.out.printf("gantry_compressed_mb: %.1f%n", best.records().get(0).bytes() / 1e6);
        System.out.printf("gantry_extract_jdbc_path_seconds: %.3f%n", jdbcPath);
        System.out.printf("gantry_extract_jdbc_path_rows_per_s: %.0f%n", extracted / jdbcPath);
        // CPU seconds of this JVM (the database server's own not counted, on either side)
        System.out.printf("gantry_extract_jdbc_path_cpu_seconds: %.2f%n", jdbcCpu);
        // both paths write the same CSV; the blocked gzip's digest tells a change in either
        System.out.println(
            "jdbc_path_csv_same_as_copy_path: "
                + uncompressedSha256(work.resolve("trade-jdbc.csv.gz"))
                    .equals(uncompressedSha256(work.resolve("trade.csv.gz"))));
        System.out.println(
            "jdbc_path_file_sha256: "
                + sha256(Files.newInputStream(work.resolve("trade-jdbc.csv.gz"))));
        System.out.printf("psql_gzip1_seconds: %.3f%n", psql);
        System.out.printf("psql_gzip1_cpu_seconds: %.2f%n", psqlCpu);
        System.out.printf(
            "psql_gzip1_compressed_mb: %.1f%n", Files.size(work.resolve("psql.csv.gz")) / 1e6);
        System.out.printf("ratio_gantry_over_psql: %.2f%n", ours / psql);
        System.out.printf("ratio_jdbc_path_over_psql: %.2f%n", jdbcPath / psql);
        System.out.println("goal_ratio_at_most: 1.00");
        System.out.println("goal_jdbc_path_ratio_at_most: 1.30");
        h2Extract(rows, work);
        if ("extract".equals(System.getenv("GANTRY_BENCH_ONLY"))) {
          System.out.println("load_after: " + loadAverage());
          return;
        }

        try (Connection c = server.connect(db);
            Statement s = c.createStatement()) {
          s.execute("CREATE TABLE trade_copy (LIKE trade)");
        }
        // stage-out: the COPY path, the JDBC batch path, and psql's \copy FROM of the same file
        double copyPath = Double.MAX_VALUE;
        long loaded = 0;
        for (int i = 0; i < 3; i++) { // the first is a warm-up
          truncate(server, db);
          Manifest out = stageOut(gateway, ref, work);
          loaded = out.records().get(0).rows();
          if (i > 0) {
            copyPath = Math.min(copyPath, out.records().get(0).seconds());
          }
        }
        boolean copyRowsMatch = count(server, db, "trade_copy") == rows;
        double jdbcLoad;
        try (StagingGateway jdbcOnly =
            new StagingGateway(credentials, GatewayOptions.defaults().withPostgresCopy(false))) {
          truncate(server, db);
          jdbcLoad = stageOut(jdbcOnly, ref, work).records().get(0).seconds();
        }
        double psqlLoad = Double.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
          truncate(server, db);
          psqlLoad = Math.min(psqlLoad, psqlCopyFrom(server, db, work.resolve("trade.csv.gz")));
        }
        System.out.printf("gantry_stage_out_seconds: %.3f%n", copyPath);
        System.out.printf("gantry_stage_out_rows_per_s: %.0f%n", loaded / copyPath);
        System.out.println("stage_out_rows_match: " + copyRowsMatch);
        System.out.printf("gantry_stage_out_jdbc_path_seconds: %.3f%n", jdbcLoad);
        System.out.printf("psql_copy_from_seconds: %.3f%n", psqlLoad);
        System.out.printf("ratio_stage_out_over_psql: %.2f%n", copyPath / psqlLoad);
        System.out.printf("ratio_stage_out_jdbc_path_over_psql: %.2f%n", jdbcLoad / psqlLoad);
        System.out.println("goal_stage_out_ratio_at_most: 1.20");
      }
      System.out.println("load_after: " + loadAverage());
    } finally {
      try (var files = Files.walk(work)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * The same rows from an in-memory H2 database in this JVM (the JDBC path; H2 has no COPY and no
   * {@code psql}, so no baseline): seconds, rows/s and CPU seconds, the fastest of three after a
   * warm-up.
   */
  static void h2Extract(int rows, Path work) throws Exception {
    String url = "jdbc:h2:mem:bench-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
    try (Connection keep = java.sql.DriverManager.getConnection(url, "sa", "bench");
        Statement s = keep.createStatement()) {
      s.execute(
          "CREATE TABLE trade (trade_id bigint primary key, trade_date date, book varchar(16),"
              + " counterparty varchar(64), notional numeric(18,2), price numeric(14,6),"
              + " quantity integer, booked_at timestamp)");
      s.execute(
          "INSERT INTO trade SELECT X, DATEADD(DAY, MOD(X, 1500), DATE '2020-01-01'),"
              + " 'BOOK-' || MOD(X, 97), 'CPTY-' || MOD(X * 7919, 5000),"
              + " CAST(MOD(X * 7919, 1000000000) / 100.0 AS NUMERIC(18,2)),"
              + " CAST(MOD(X * 37, 100000) / 64.0 + 0.5 AS NUMERIC(14,6)), MOD(X, 1000) - 500,"
              + " DATEADD(SECOND, X, TIMESTAMP '2024-01-01 00:00:00')"
              + " FROM SYSTEM_RANGE(1, "
              + rows
              + ")");
      DataSourceSpec spec = new DataSourceSpec("h2", url, "sa", Secret.of("bench"));
      CredentialResolver credentials = onlyDataSource(spec);
      StageInPlan plan =
          new StageInPlan(
              List.of(),
              List.of(
                  new SqlExtract(
                      DataSourceRef.named("h2"),
                      1,
                      QUERY,
                      "trade-h2.csv.gz",
                      null,
                      CreationFlag.OVERWRITE,
                      true)));
      double best = Double.MAX_VALUE;
      double cpu = 0;
      try (StagingGateway gateway = new StagingGateway(credentials, GatewayOptions.defaults())) {
        gateway.stageIn(plan, work, null); // warm-up
        for (int i = 0; i < 3; i++) {
          long t0 = System.nanoTime();
          double cpu0 = ownCpuSeconds();
          gateway.stageIn(plan, work, null);
          double seconds = (System.nanoTime() - t0) / 1e9;
          if (seconds < best) {
            best = seconds;
            cpu = ownCpuSeconds() - cpu0;
          }
        }
      }
      s.execute("SHUTDOWN");
      System.out.printf("h2_extract_seconds: %.3f%n", best);
      System.out.printf("h2_extract_rows_per_s: %.0f%n", rows / best);
      System.out.printf("h2_extract_cpu_seconds: %.2f%n", cpu);
    }
  }

  /** One stage-out of the extracted file into {@code trade_copy}, under a new job id. */
  static Manifest stageOut(StagingGateway gateway, DataSourceRef ref, Path work) throws Exception {
    return gateway.stageOut(
        new StageOutPlan(
            "bench-" + System.nanoTime(),
            List.of(
                new SqlLoad(
                    ref,
                    1,
                    "INSERT INTO trade_copy VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    "trade.csv.gz",
                    5000)),
            List.of()),
        work,
        null);
  }

  static void truncate(EmbeddedPostgresServer server, String db) throws Exception {
    try (Connection c = server.connect(db);
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE trade_copy");
      s.execute("CHECKPOINT"); // each load starts from the same clean buffers
    }
  }

  /** {@code gzip -dc FILE | psql -c "\copy trade_copy FROM PSTDIN WITH CSV HEADER"}, timed. */
  static double psqlCopyFrom(EmbeddedPostgresServer server, String db, Path file) throws Exception {
    String command =
        "gzip -dc '"
            + file
            + "' | psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "
            + server.port()
            + " -U "
            + server.user()
            + " -d "
            + db
            + " -c \"\\copy trade_copy from pstdin with csv header\"";
    ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", command).inheritIO();
    long t0 = System.nanoTime();
    int rc = pb.start().waitFor();
    double s = (System.nanoTime() - t0) / 1e9;
    if (rc != 0) {
      throw new IllegalStateException("gzip -dc | psql \\copy FROM failed with status " + rc);
    }
    return s;
  }

  /** About 110 bytes of CSV per row: integers, dates, text, exact decimals and timestamps. */
  public static void load(EmbeddedPostgresServer server, String db, int rows) throws Exception {
    try (Connection c = server.connect(db);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE trade (trade_id bigint primary key, trade_date date, book varchar(16),"
              + " counterparty varchar(64), notional numeric(18,2), price numeric(14,6), quantity integer,"
              + " booked_at timestamp)");
      s.execute(
          "INSERT INTO trade SELECT g, DATE '2020-01-01' + (g % 1500), 'BOOK-' || (g % 97),"
              + " 'CPTY-' || md5((g % 5000)::text), ((g::bigint * 7919) % 1000000000) / 100.0,"
              + " ((g * 37) % 100000) / 64.0 + 0.5, (g % 1000) - 500,"
              + " TIMESTAMP '2024-01-01 00:00:00' + g * INTERVAL '1 second'"
              + " FROM generate_series(1, "
              + rows
              + ") g");
      s.execute("VACUUM ANALYZE trade");
    }
  }

  static double psqlGzip(EmbeddedPostgresServer server, String db, Path out) throws Exception {
    return psqlGzip(server, db, out, QUERY);
  }

  /** {@code psql \copy (query) to stdout with csv header | gzip -1 > out}, timed. */
  static double psqlGzip(EmbeddedPostgresServer server, String db, Path out, String query)
      throws Exception {
    String command =
        "psql -X -q -h 127.0.0.1 -p "
            + server.port()
            + " -U "
            + server.user()
            + " -d "
            + db
            + " -c \"\\copy ("
            + query
            + ") to stdout with csv header\" | gzip -1 > '"
            + out
            + "'";
    ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", command).inheritIO();
    long t0 = System.nanoTime();
    int rc = pb.start().waitFor();
    double s = (System.nanoTime() - t0) / 1e9;
    if (rc != 0) {
      throw new IllegalStateException("psql | gzip -1 failed with status " + rc);
    }
    return s;
  }

  /** The first three fields of /proc/loadavg (1, 5, 15 minutes), or "unknown". */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  /** CPU seconds (user and system) this JVM has used. */
  static double ownCpuSeconds() {
    var os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os.getProcessCpuTime() / 1e9;
  }

  /**
   * CPU seconds of the children this JVM has waited for (cutime and cstime of /proc/self/stat, at
   * the kernel's 100 ticks a second): bash, psql and gzip of {@link #psqlGzip}.
   */
  static double childrenCpuSeconds() throws java.io.IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // after the command: state is field 3, so cutime (16) and cstime (17) are at 13 and 14
    return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / 100.0;
  }

  public static String uncompressedSha256(Path file) throws Exception {
    return sha256(CompressedFiles.openDecompressed(file));
  }

  static String sha256(InputStream stream) throws Exception {
    java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
    byte[] buf = new byte[1 << 16];
    try (InputStream in = stream) {
      int r;
      while ((r = in.read(buf)) > 0) {
        digest.update(buf, 0, r);
      }
    }
    return java.util.HexFormat.of().formatHex(digest.digest());
  }

  public static long uncompressedSize(Path file) throws Exception {
    long n = 0;
    byte[] buf = new byte[1 << 16];
    try (InputStream in = CompressedFiles.openDecompressed(file)) {
      int r;
      while ((r = in.read(buf)) > 0) {
        n += r;
      }
    }
    return n;
  }

  static long count(EmbeddedPostgresServer server, String db, String table) throws Exception {
    try (Connection c = server.connect(db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Credentials for the benchmark's one data source; it makes no remote transfers. */
  private static CredentialResolver onlyDataSource(DataSourceSpec spec) {
    return new CredentialResolver() {
      @Override
      public DataSourceSpec dataSource(DataSourceRef ref) {
        return spec;
      }

      @Override
      public SshCredentials ssh(RemoteTransfer transfer) {
        throw new IllegalArgumentException("no transfers");
      }
    };
  }
}
