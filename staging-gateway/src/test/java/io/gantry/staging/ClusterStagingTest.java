package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.testing.ConnectionDroppingProxy;
import io.gantry.testing.SshTestHost;
import io.gantry.testing.cluster.NamespaceCluster;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Staging into and out of a job directory on a cluster reached over SSH: the login host of a
 * namespace cluster runs OpenSSH's sshd, and the gateway reaches it through a relay that can cut
 * the connection ({@link ConnectionDroppingProxy}). The hosts share this machine's file system, so
 * the test checks the cluster's files directly under the directory it made for compute.root.
 */
class ClusterStagingTest {
  private static final int ROWS = 60_000;
  private static NamespaceCluster cluster;
  private static ConnectionDroppingProxy proxy;

  @TempDir static Path shared;
  @TempDir Path config;
  @TempDir Path marketHostRoot;

  private TestDatabase db;
  private SshTestHost marketHost;
  private ClusterConnection connection;
  private StagingGateway gateway;
  private String jobDir;
  private final DataSourceRef market = DataSourceRef.named("market");

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = NamespaceCluster.builder().nodes(1).sshd().start();
    proxy = new ConnectionDroppingProxy(cluster.loginSshEndpoint().getPort());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    db = TestDatabase.h2();
    db.execute(
        "CREATE TABLE trade (trade_id int primary key, factor_id varchar(16), notional decimal(20,4))",
        "INSERT INTO trade SELECT x, 'F' || MOD(x, 7), x * 1.25 FROM SYSTEM_RANGE(1, " + ROWS + ")",
        "CREATE TABLE factor (factor_id varchar(16) primary key, level decimal(20,4))",
        "INSERT INTO factor SELECT 'F' || x, x + 0.5 FROM SYSTEM_RANGE(0, 6)",
        "CREATE TABLE result (factor_id varchar(16), total decimal(30,4))");
    marketHost = SshTestHost.start(marketHostRoot);
    marketHost.addUser("risk", "s3cret");
    // the login node's key under the proxy's address, and the market host's key
    String loginKey =
        Files.readAllLines(cluster.knownHosts()).stream()
            .filter(l -> l.contains("]:" + cluster.loginSshEndpoint().getPort() + " "))
            .map(l -> l.substring(l.indexOf(' ') + 1))
            .findFirst()
            .orElseThrow();
    Files.writeString(
        config.resolve("known_hosts"),
        "[127.0.0.1]:" + proxy.port() + " " + loginKey + "\n" + marketHost.knownHostsLine() + "\n");
    GatewayOptions options =
        GatewayOptions.defaults()
            .withKnownHosts(config.resolve("known_hosts"), false)
            .withBlockSize(8192)
            .withRetries(Duration.ofSeconds(10), 3, Duration.ofMillis(50));
    byte[] key = Files.readAllBytes(cluster.sshPrivateKey());
    connection =
        new ClusterConnection(
            cluster.sshUser(),
            "127.0.0.1",
            proxy.port(),
            () -> SshCredentials.privateKey(key, null),
            options);
    gateway =
        new StagingGateway(
            new TestCredentials()
                .dataSource("market", db.spec("market"))
                .login("risk", SshCredentials.password(Secret.of("s3cret"))),
            options);
    jobDir = shared.resolve("root/job-" + System.nanoTime()).toString();
    connection.recreateDirectory(jobDir);
  }

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
    if (connection != null) {
      connection.close();
    }
    if (marketHost != null) {
      marketHost.close();
    }
  }

  private SqlExtract extract(int group, String sql, String out, String in, boolean compress) {
    return new SqlExtract(market, group, sql, out, in, CreationFlag.OVERWRITE, compress);
  }

  @Test
  void stageInStreamsRowsAndRemoteFilesIntoTheClusterAndEachChecksumIsTheFilesOwn()
      throws Exception {
    byte[] history = new byte[2_000_000];
    new Random(5).nextBytes(history);
    Files.write(marketHostRoot.resolve("history.bin"), history);
    StageInPlan plan =
        new StageInPlan(
            List.of(
                new RemoteTransfer(
                    1,
                    RemoteTransfer.Direction.TRANSMIT,
                    RemoteTransfer.Protocol.SFTP,
                    marketHost.host(),
                    marketHost.port(),
                    "risk",
                    "/history.bin",
                    "in/history.bin",
                    false)),
            List.of(
                extract(
                    1,
                    "SELECT factor_id FROM factor ORDER BY factor_id",
                    "in/factors.csv.gz",
                    null,
                    true),
                extract(1, "SELECT * FROM trade ORDER BY trade_id", "in/trades.csv.gz", null, true),
                extract(
                    2,
                    "SELECT factor_id, level FROM factor WHERE factor_id = ?",
                    "in/levels.csv",
                    "in/factors.csv.gz",
                    false)));

    Manifest manifest = gateway.stageIn(plan, connection, jobDir, StagingListener.NONE);

    Path dir = Path.of(jobDir);
    assertEquals(4, manifest.records().size());
    for (ManifestRecord r : manifest.records()) {
      Path file = dir.resolve(r.file());
      assertEquals(Files.size(file), r.bytes(), r.file());
      assertEquals(Checksums.sha256(file), r.sha256(), r.file() + ": the stream's checksum");
    }
    assertArrayEquals(history, Files.readAllBytes(dir.resolve("in/history.bin")), "host to host");
    List<String> trades = lines(dir.resolve("in/trades.csv.gz"));
    assertEquals(ROWS + 1, trades.size());
    assertEquals("trade_id,factor_id,notional", trades.get(0).toLowerCase(java.util.Locale.ROOT));
    assertEquals("1,F1,1.2500", trades.get(1));
    assertEquals(8, lines(dir.resolve("in/levels.csv")).size(), "group 2 read group 1's output");
    assertEquals(List.of(), hiddenFiles(dir), "no temporary name left");
  }

  @Test
  void aStreamBrokenMidFileIsRetriedFromTheStartAndLeavesOneCompleteFile() throws Exception {
    connection.disconnect(); // the next connection goes through the armed proxy
    int droppedBefore = proxy.droppedConnections();
    proxy.dropNextConnections(1, 400_000);
    StageInPlan plan =
        new StageInPlan(
            List.of(),
            List.of(
                extract(1, "SELECT * FROM trade ORDER BY trade_id", "in/trades.csv", null, false)));

    Manifest manifest = gateway.stageIn(plan, connection, jobDir, StagingListener.NONE);

    assertEquals(droppedBefore + 1, proxy.droppedConnections(), "the first stream was cut");
    Path file = Path.of(jobDir, "in/trades.csv");
    ManifestRecord r = manifest.records().get(0);
    assertEquals(ROWS, r.rows());
    assertEquals(Files.size(file), r.bytes());
    assertTrue(r.bytes() > 400_000, "the file is larger than what the cut connection carried");
    assertEquals(Checksums.sha256(file), r.sha256());
    assertEquals(ROWS + 1, Files.readAllLines(file).size());
    assertEquals(List.of(), hiddenFiles(Path.of(jobDir)), "the retry took over the partial file");
  }

  @Test
  void stageOutStreamsTheFileBackFromTheClusterIntoSql() throws Exception {
    Path out = Files.createDirectories(Path.of(jobDir, "out"));
    try (var w =
        new java.io.OutputStreamWriter(
            new java.util.zip.GZIPOutputStream(Files.newOutputStream(out.resolve("totals.csv.gz"))),
            StandardCharsets.UTF_8)) {
      w.write("factor_id,total\nF1,10.5\nF2,20.25\n");
    }
    StageOutPlan plan =
        new StageOutPlan(
            "job-out",
            List.of(
                new SqlLoad(
                    market,
                    1,
                    "INSERT INTO result (factor_id, total) VALUES (?, ?)",
                    "out/totals.csv.gz",
                    SqlLoad.DEFAULT_BATCH_SIZE)),
            List.of());

    Manifest manifest = gateway.stageOut(plan, connection, jobDir, StagingListener.NONE);

    assertEquals(2, manifest.records().get(0).rows());
    assertEquals(
        Checksums.sha256(out.resolve("totals.csv.gz")), manifest.records().get(0).sha256());
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT factor_id, total FROM result ORDER BY factor_id")) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString(1) + "=" + rs.getBigDecimal(2).stripTrailingZeros().toPlainString());
      }
      assertEquals(List.of("F1=10.5", "F2=20.25"), rows);
    }
  }

  @Test
  void linksThatTheJobPlantedAreNeitherFollowedByStageOutNorByTheServersReaders() throws Exception {
    Path dir = Path.of(jobDir);
    Path secret = shared.resolve("server-secret.txt");
    Files.writeString(secret, "factor_id,total\nSECRET,1\n");
    Files.createSymbolicLink(dir.resolve("totals.csv"), secret);
    Files.createSymbolicLink(dir.resolve("up"), shared);
    StageOutPlan plan =
        new StageOutPlan(
            "job-links",
            List.of(
                new SqlLoad(
                    market,
                    1,
                    "INSERT INTO result (factor_id, total) VALUES (?, ?)",
                    "totals.csv",
                    SqlLoad.DEFAULT_BATCH_SIZE)),
            List.of());

    StagingException e =
        assertThrows(
            StagingException.class,
            () -> gateway.stageOut(plan, connection, jobDir, StagingListener.NONE));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    assertThrows(
        JobDirectoryReader.RefusedFileException.class,
        () -> connection.openJobFile(jobDir, "totals.csv"));
    assertThrows(
        JobDirectoryReader.RefusedFileException.class,
        () -> connection.openJobFile(jobDir, "up/server-secret.txt"));
    assertThrows(
        java.io.IOException.class, () -> connection.openJobFile(jobDir, "../server-secret.txt"));
  }

  @Test
  void theServersReaderReadsARangeOfAJobFileOnTheCluster() throws Exception {
    Files.writeString(Path.of(jobDir, "stdout.txt"), "0123456789abcdef");
    try (SeekableByteChannel in = connection.openJobFile(jobDir, "stdout.txt")) {
      assertEquals(16, in.size());
      in.position(10);
      assertEquals(
          "abcdef", new String(Channels.newInputStream(in).readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /**
   * The stage-in cache is a feature of job directories on the server's host: its entries live there
   * and a hit is a hard link. The same cacheable plan (an SQL extract, an sftp transfer and an sftp
   * URI, each with a CacheRule) is served from the cache into a local directory the second time,
   * and is staged afresh into a cluster directory every time, with nothing added to the cache.
   */
  @Test
  void theStageInCacheServesLocalJobDirectoriesOnlyAndNeverLinksIntoTheCluster(
      @TempDir Path cacheRoot, @TempDir Path localJobs) throws Exception {
    Files.writeString(
        marketHostRoot.resolve("curve.csv"), "tenor,rate\n" + "1Y,0.031\n".repeat(5000));
    CacheRule rule = new CacheRule(Duration.ofHours(1), null);
    StageInPlan plan =
        new StageInPlan(
            List.of(
                new RemoteTransfer(
                    1,
                    RemoteTransfer.Direction.TRANSMIT,
                    RemoteTransfer.Protocol.SFTP,
                    marketHost.host(),
                    marketHost.port(),
                    "risk",
                    "/curve.csv",
                    "in/curve.csv",
                    false,
                    null,
                    rule)),
            List.of(
                new SqlExtract(
                    market,
                    1,
                    "SELECT factor_id, level FROM factor ORDER BY factor_id",
                    "in/levels.csv",
                    null,
                    CreationFlag.OVERWRITE,
                    false,
                    rule)),
            List.of(
                new UriTransfer(
                    1,
                    UriTransfer.Direction.IN,
                    java.net.URI.create(
                        "sftp://" + marketHost.host() + ":" + marketHost.port() + "/curve.csv"),
                    "in/curve-uri.csv",
                    CreationFlag.OVERWRITE,
                    null,
                    "risk",
                    null,
                    rule)));
    StageInCache cache = StageInCache.open(cacheRoot.resolve("cache"), 1L << 30);
    gateway.useCache(cache);

    for (int run = 0; run < 2; run++) {
      String dir = shared.resolve("root/cached-" + run + "-" + System.nanoTime()).toString();
      connection.recreateDirectory(dir);
      Manifest onCluster = gateway.stageIn(plan, connection, dir, StagingListener.NONE);
      assertEquals(3, onCluster.records().size());
      for (ManifestRecord r : onCluster.records()) {
        assertTrue(!r.cacheHit() && !r.kind().endsWith("-cached"), r.kind() + " " + r.file());
        Path file = Path.of(dir).resolve(r.file());
        assertEquals(Checksums.sha256(file), r.sha256(), r.file());
        assertEquals(
            1,
            (Integer) Files.getAttribute(file, "unix:nlink"),
            r.file() + " is a file of its own, no link to a cache entry");
      }
      assertEquals(List.of(), cache.list(), "a cluster stage-in adds nothing to the cache");
    }

    // the control: the same plan and cache do serve a job directory on this host
    gateway.stageIn(plan, Files.createDirectories(localJobs.resolve("1")), StagingListener.NONE);
    Manifest local =
        gateway.stageIn(
            plan, Files.createDirectories(localJobs.resolve("2")), StagingListener.NONE);
    assertEquals(3, local.records().size());
    for (ManifestRecord r : local.records()) {
      assertTrue(r.cacheHit(), r.kind() + " " + r.file() + " is served from the cache locally");
    }
  }

  @Test
  void namesWithGlobCharactersAreRefusedNamingTheFile() {
    StageInPlan plan =
        new StageInPlan(
            List.of(), List.of(extract(1, "SELECT 1 AS x FROM factor", "in/*.csv", null, false)));
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> gateway.stageIn(plan, connection, jobDir, StagingListener.NONE));
    assertTrue(e.getMessage().contains("in/*.csv"), e.getMessage());
  }

  /**
   * A streamed input on the cluster (gx:Stream file): created empty, each block on the cluster's
   * file system when its append returns, the whole file the bytes appended; a name that exists is
   * refused, and so is an append to a file the job changed meanwhile.
   */
  @Test
  void aStreamedInputIsAppendedBlockByBlockOverSftpAndAChangedFileIsRefused() throws Exception {
    Path onCluster = Path.of(jobDir, "in/stream.bin");
    byte[] data = new byte[300_000];
    new Random(7).nextBytes(data);
    try (AppendedFile file = connection.createAppendedJobFile(jobDir, "in/stream.bin")) {
      assertEquals(0L, Files.size(onCluster));
      for (int off = 0; off < data.length; off += 65_536) {
        int n = Math.min(65_536, data.length - off);
        file.append(java.nio.ByteBuffer.wrap(data, off, n));
        assertEquals(off + n, Files.size(onCluster), "on the file system when append returns");
        assertEquals(off + n, file.size());
      }
      assertArrayEquals(data, Files.readAllBytes(onCluster));
      assertThrows(
          java.io.IOException.class,
          () -> connection.createAppendedJobFile(jobDir, "in/stream.bin"),
          "exists");
      Files.write(onCluster, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);
      java.io.IOException changed =
          assertThrows(
              java.io.IOException.class,
              () -> file.append(java.nio.ByteBuffer.wrap(new byte[] {2})));
      assertTrue(changed.getMessage().contains("changed"), changed.getMessage());
    }
    assertThrows(
        java.io.IOException.class,
        () -> connection.createAppendedJobFile(jobDir, "../outside.bin"),
        "confined");
  }

  /**
   * The server's follow of a streamed input on a cluster: a producer's file in its job directory
   * there, read over SFTP into a directory of this host (the spill copy), with its checksum.
   */
  @Test
  void aProducersFileOnTheClusterIsStagedIntoADirectoryOfThisHost(@TempDir Path spill)
      throws Exception {
    String producer = shared.resolve("root/producer-" + System.nanoTime()).toString();
    connection.recreateDirectory(producer);
    byte[] data = new byte[200_000];
    new Random(9).nextBytes(data);
    Files.write(Path.of(producer, "out.bin"), data);
    gateway.useJobOutputs(
        job -> job.equals("41") ? java.util.Optional.of(producer) : java.util.Optional.empty());
    StageInPlan plan =
        new StageInPlan(
            List.of(),
            List.of(),
            List.of(
                new UriTransfer(
                    1,
                    UriTransfer.Direction.IN,
                    java.net.URI.create("gantry-job:41/out.bin"),
                    "in/out.bin",
                    CreationFlag.OVERWRITE,
                    null,
                    null,
                    null)));
    Manifest manifest = gateway.stageInFromCluster(plan, connection, spill, StagingListener.NONE);
    assertArrayEquals(data, Files.readAllBytes(spill.resolve("in/out.bin")));
    assertEquals(Checksums.sha256(spill.resolve("in/out.bin")), manifest.records().get(0).sha256());
  }

  private static List<String> lines(Path file) throws Exception {
    try (InputStream in = CompressedFiles.openDecompressed(file)) {
      return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
    }
  }

  private static List<Path> hiddenFiles(Path dir) throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(".")).toList();
    }
  }
}
