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
import io.gantry.testing.EmbeddedPostgresServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Staging in bounded memory (run by {@code staging-gateway/bench/run} with {@code
 * GANTRY_BENCH_ONLY=memory}): a table of N rows (10,000,000 by default, about 1.1 GB of CSV) in a
 * real PostgreSQL is extracted into a job directory and the extracted file loaded back into a
 * table, each by a child JVM with a fixed small heap ({@code -Dbench.child-heap}, 128m) running the
 * gateway's real stage-in and stage-out; first at a tenth of N, then at N. Each child reports its
 * peak heap (the heap pools' peak use, {@link MemoryPoolMXBean#getPeakUsage}) and its peak resident
 * size ({@code VmHWM} of {@code /proc/self/status}); memory that does not grow from a tenth to the
 * whole is memory independent of the size. Baselines from the same run: {@code psql \copy (query)
 * to stdout | gzip -1} and {@code gzip -dc | psql \copy ... from pstdin} of the same rows.
 */
public final class BoundedMemoryBenchmark {
  /** The table the load modes fill: create it {@code LIKE trade}. */
  public static final String TARGET = "trade_copy";

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args);
      return;
    }
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    String heap = System.getProperty("bench.child-heap", "128m");
    boolean jdbcLoad = Boolean.parseBoolean(System.getProperty("bench.jdbc-load", "true"));
    System.out.println("load_before: " + StagingBenchmark.loadAverage());
    Path work = Files.createTempDirectory("gantry-bench-memory");
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
      String db = server.createDatabase();
      long t0 = System.nanoTime();
      StagingBenchmark.load(server, db, rows);
      System.out.printf("table_fill_seconds: %.1f%n", (System.nanoTime() - t0) / 1e9);
      try (Connection c = server.connect(db);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE " + TARGET + " (LIKE trade)");
      }
      System.out.println("child_heap: " + heap);
      for (int size : new int[] {rows / 10, rows}) {
        String p = "rows_" + size + ".";
        Path dir = Files.createDirectories(work.resolve("job-" + size));
        String url = server.jdbcUrl(db);
        print(p + "extract_copy.", child(heap, "extract", url, server.user(), size, dir));
        long csv = StagingBenchmark.uncompressedSize(dir.resolve("trade.csv.gz"));
        System.out.printf("%scsv_mb: %.1f%n", p, csv / 1e6);
        Path psqlOut = work.resolve("psql.csv.gz");
        System.out.printf(
            "%spsql_gzip1_seconds: %.2f%n",
            p, StagingBenchmark.psqlGzip(server, db, psqlOut, query(size)));
        Files.delete(psqlOut);
        print(p + "extract_jdbc.", child(heap, "extract-jdbc", url, server.user(), size, dir));
        Files.delete(dir.resolve("trade-jdbc.csv.gz"));
        StagingBenchmark.truncate(server, db);
        print(p + "load_copy.", child(heap, "load", url, server.user(), size, dir));
        System.out.println(
            p + "load_copy.rows_in_table: " + StagingBenchmark.count(server, db, TARGET));
        StagingBenchmark.truncate(server, db);
        System.out.printf(
            "%spsql_copy_from_seconds: %.2f%n",
            p, StagingBenchmark.psqlCopyFrom(server, db, dir.resolve("trade.csv.gz")));
        if (jdbcLoad) {
          StagingBenchmark.truncate(server, db);
          print(p + "load_jdbc.", child(heap, "load-jdbc", url, server.user(), size, dir));
          System.out.println(
              p + "load_jdbc.rows_in_table: " + StagingBenchmark.count(server, db, TARGET));
        }
        StagingBenchmark.truncate(server, db);
        Files.delete(dir.resolve("trade.csv.gz"));
      }
    } finally {
      try (var files = Files.walk(work)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
    System.out.println("load_after: " + StagingBenchmark.loadAverage());
  }

  static String query(int rows) {
    return "SELECT * FROM trade WHERE trade_id <= " + rows + " ORDER BY trade_id";
  }

  private static void print(String prefix, List<String> lines) {
    for (String line : lines) {
      System.out.println(prefix + line);
    }
  }

  /**
   * Runs one staging step in a child JVM with {@code -Xmx<heap>}; its {@code name: value} lines.
   * Modes: {@code extract} and {@code extract-jdbc} read {@link #query} of the {@code trade} table
   * of {@link StagingBenchmark#load} into {@code trade.csv.gz} and {@code trade-jdbc.csv.gz} of
   * {@code dir}; {@code load} and {@code load-jdbc} load {@code trade.csv.gz} into {@code
   * trade_copy}, a table like {@code trade}. The {@code -jdbc} modes leave out PostgreSQL's COPY.
   */
  public static List<String> child(
      String heap, String mode, String url, String user, int rows, Path dir) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx" + heap,
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp",
            System.getProperty("java.class.path"),
            BoundedMemoryBenchmark.class.getName(),
            "child",
            mode,
            url,
            user,
            Integer.toString(rows),
            dir.toString());
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    }
    int rc = process.waitFor();
    if (rc != 0) {
      throw new IllegalStateException(
          mode + " of " + rows + " rows in -Xmx" + heap + " failed with status " + rc);
    }
    return lines;
  }

  /** In the child JVM: one stage-in or stage-out, then its figures. */
  private static void child(String[] args) throws Exception {
    String mode = args[1];
    DataSourceSpec spec =
        new DataSourceSpec(
            "bench", args[2] + "?reWriteBatchedInserts=true", args[3], Secret.of(""));
    int rows = Integer.parseInt(args[4]);
    Path dir = Path.of(args[5]);
    DataSourceRef ref = DataSourceRef.named("bench");
    GatewayOptions options =
        mode.endsWith("-jdbc")
            ? GatewayOptions.defaults().withPostgresCopy(false)
            : GatewayOptions.defaults();
    long t0 = System.nanoTime();
    Manifest manifest;
    try (StagingGateway gateway = new StagingGateway(onlyDataSource(spec), options)) {
      if (mode.startsWith("extract")) {
        String file = mode.endsWith("-jdbc") ? "trade-jdbc.csv.gz" : "trade.csv.gz";
        manifest =
            gateway.stageIn(
                new StageInPlan(
                    List.of(),
                    List.of(
                        new SqlExtract(
                            ref, 1, query(rows), file, null, CreationFlag.OVERWRITE, true))),
                dir,
                null);
      } else {
        manifest =
            gateway.stageOut(
                new StageOutPlan(
                    "bench-memory-" + System.nanoTime(),
                    List.of(
                        new SqlLoad(
                            ref,
                            1,
                            "INSERT INTO " + TARGET + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            "trade.csv.gz",
                            5000)),
                    List.of()),
                dir,
                null);
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    long staged = manifest.records().get(0).rows();
    System.out.println("rows: " + staged);
    System.out.printf("seconds: %.2f%n", seconds);
    System.out.printf("rows_per_s: %.0f%n", staged / seconds);
    long heapPeak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPeak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.printf("peak_heap_mib: %.1f%n", heapPeak / 1048576.0);
    System.out.printf("peak_rss_mib: %.1f%n", vmHwmKib() / 1024.0);
  }

  /** The peak resident set size of this process, {@code VmHWM} of /proc/self/status, in KiB. */
  private static long vmHwmKib() throws java.io.IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

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
