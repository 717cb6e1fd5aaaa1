package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.RemoteTransfer.Direction;
import io.gantry.staging.RemoteTransfer.Protocol;
import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.testing.FtpTestServer;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.SshTestHost;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Remote files through the stage-in cache, against real servers started here: the SSH host (scp and
 * sftp, SCPDataStaging and sftp:/scp: URIs), the HTTP server (HEAD: Content-Length and
 * Last-Modified), the FTP server (SIZE and MDTM) and file: URIs. The key is the location, the login
 * and the version the server reports; a changed file is a miss.
 */
class RemoteFileCacheTest {
  static final CacheRule FOUR_HOURS = new CacheRule(Duration.ofHours(4), null);
  static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");

  @TempDir Path jobs;
  @TempDir Path remoteRoot;
  @TempDir Path config;
  @TempDir Path cacheDir;
  SshTestHost host;
  TestCredentials credentials;
  StageInCache cache;
  int jobNumber;

  @BeforeEach
  void setUp() throws Exception {
    host = SshTestHost.start(remoteRoot);
    host.addUser("risk", "s3cret");
    host.addUser("audit", "other");
    Files.writeString(config.resolve("known_hosts"), host.knownHostsLine() + "\n");
    credentials =
        new TestCredentials()
            .login("risk", SshCredentials.password(Secret.of("s3cret")))
            .login("audit", SshCredentials.password(Secret.of("other")));
    Files.createDirectories(remoteRoot.resolve("data"));
    write("data/history.csv", "factor,day,level\n" + "F1,2026-11-24,101.5\n".repeat(20_000));
    cache = StageInCache.open(cacheDir.resolve("cache"), 1L << 30);
  }

  @AfterEach
  void tearDown() {
    host.close();
  }

  void write(String name, String content) throws Exception {
    Path file = remoteRoot.resolve(name);
    Files.writeString(file, content);
    Files.setLastModifiedTime(file, FileTime.from(T0));
  }

  GatewayOptions options() {
    return GatewayOptions.defaults()
        .withKnownHosts(config.resolve("known_hosts"), false)
        .withRetries(Duration.ofSeconds(5), 2, Duration.ofMillis(50));
  }

  Path newJob() throws Exception {
    return Files.createDirectories(jobs.resolve("job-" + ++jobNumber));
  }

  RemoteTransfer scp(Protocol p, String user, boolean compress, CacheRule rule) {
    return new RemoteTransfer(
        1,
        Direction.TRANSMIT,
        p,
        host.host(),
        host.port(),
        user,
        "/data/history.csv",
        compress ? "history.csv.gz" : "history.csv",
        compress,
        null,
        rule);
  }

  ManifestRecord transmit(Path job, RemoteTransfer t) throws StagingException {
    try (StagingGateway g = new StagingGateway(credentials, options())) {
      g.useCache(cache);
      return g.stageIn(new StageInPlan(List.of(t), List.of()), job, null).records().get(0);
    }
  }

  ManifestRecord fetch(Path job, UriStagingPolicy policy, UriTransfer t) throws StagingException {
    try (StagingGateway g = new StagingGateway(credentials, options(), policy)) {
      g.useCache(cache);
      return g.stageIn(new StageInPlan(List.of(), List.of(), List.of(t)), job, null)
          .records()
          .get(0);
    }
  }

  static UriTransfer uri(String uri, String user, CacheRule rule) {
    return new UriTransfer(
        1,
        UriTransfer.Direction.IN,
        URI.create(uri),
        "history.csv",
        CreationFlag.OVERWRITE,
        user == null ? null : "login",
        user,
        null,
        rule);
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void aSecondTransmitOfTheUnchangedFileIsALinkedHitAndAChangedFileIsAMiss(Protocol p)
      throws Exception {
    Path first = newJob();
    ManifestRecord miss = transmit(first, scp(p, "risk", false, FOUR_HOURS));
    assertEquals("transmit", miss.kind());
    assertEquals(1, cache.list().size());

    Path second = newJob();
    ManifestRecord hit = transmit(second, scp(p, "risk", false, FOUR_HOURS));
    assertEquals(ManifestRecord.TRANSMIT_CACHED, hit.kind());
    assertTrue(hit.cacheHit());
    assertEquals(miss.sha256(), hit.sha256());
    assertEquals(miss.bytes(), hit.bytes());
    assertEquals("/data/history.csv", hit.detail());
    Path linked = second.resolve("history.csv");
    assertEquals(Checksums.sha256(linked), hit.sha256());
    assertEquals(
        Files.getAttribute(cache.directory().resolve(cache.list().get(0).key()), "unix:ino"),
        Files.getAttribute(linked, "unix:ino"),
        "a hit is a hard link to the entry, not a copy");
    assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(linked)));

    // same size, later modification time: the server reports another version
    write("data/history.csv", Files.readString(remoteRoot.resolve("data/history.csv")));
    Files.setLastModifiedTime(
        remoteRoot.resolve("data/history.csv"), FileTime.from(T0.plusSeconds(60)));
    ManifestRecord changed = transmit(newJob(), scp(p, "risk", false, FOUR_HOURS));
    assertEquals("transmit", changed.kind(), "a changed modification time is a miss");

    // same modification time, other size
    write("data/history.csv", "factor,day,level\nF1,2026-11-25,99\n");
    Path third = newJob();
    ManifestRecord resized = transmit(third, scp(p, "risk", false, FOUR_HOURS));
    assertEquals("transmit", resized.kind(), "a changed size is a miss");
    assertEquals(
        "factor,day,level\nF1,2026-11-25,99\n", Files.readString(third.resolve("history.csv")));
  }

  @Test
  void theStagedFormAndTheAccountAreInTheKeyAndAWrongPasswordNeverGetsTheCachedFile()
      throws Exception {
    transmit(newJob(), scp(Protocol.SFTP, "risk", false, FOUR_HOURS));
    Path compressed = newJob();
    ManifestRecord gz = transmit(compressed, scp(Protocol.SFTP, "risk", true, FOUR_HOURS));
    assertEquals("transmit", gz.kind(), "compressed on arrival is another entry");
    assertTrue(CompressedFiles.isGzip(compressed.resolve("history.csv.gz")));
    assertEquals(
        ManifestRecord.TRANSMIT_CACHED,
        transmit(newJob(), scp(Protocol.SFTP, "risk", true, FOUR_HOURS)).kind());

    assertEquals(
        "transmit",
        transmit(newJob(), scp(Protocol.SFTP, "audit", false, FOUR_HOURS)).kind(),
        "another remote account is another key: it may see other files");

    credentials.login("risk", SshCredentials.password(Secret.of("wrong")));
    Path refused = newJob();
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> transmit(refused, scp(Protocol.SFTP, "risk", false, FOUR_HOURS)));
    assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("auth"), e.getMessage());
    assertFalse(Files.exists(refused.resolve("history.csv")));
  }

  @Test
  void withoutARuleOrPastItsValidityTheFileIsFetchedAgain() throws Exception {
    transmit(newJob(), scp(Protocol.SFTP, "risk", false, null));
    assertEquals(0, cache.list().size(), "no CacheValidity: nothing is cached");
    transmit(newJob(), scp(Protocol.SFTP, "risk", false, new CacheRule(Duration.ZERO, null)));
    assertEquals(0, cache.list().size(), "PT0S: nothing is cached");

    transmit(newJob(), scp(Protocol.SFTP, "risk", false, FOUR_HOURS));
    CacheRule expired = new CacheRule(Duration.ofNanos(1), null);
    assertEquals(
        "transmit",
        transmit(newJob(), scp(Protocol.SFTP, "risk", false, expired)).kind(),
        "an entry older than the validity is a miss");
  }

  @Test
  void sftpAndScpUrisAreCachedLikeScpDataStaging() throws Exception {
    UriStagingPolicy policy = UriStagingPolicy.networkOnly();
    String sftp = "sftp://" + host.host() + ":" + host.port() + "/data/history.csv";
    assertEquals("uri-in", fetch(newJob(), policy, uri(sftp, "risk", FOUR_HOURS)).kind());
    assertEquals(
        ManifestRecord.URI_IN_CACHED,
        fetch(newJob(), policy, uri(sftp, "risk", FOUR_HOURS)).kind());
    String scp = "scp://" + host.host() + ":" + host.port() + "/data/history.csv";
    assertEquals("uri-in", fetch(newJob(), policy, uri(scp, "risk", FOUR_HOURS)).kind());
    assertEquals(
        ManifestRecord.URI_IN_CACHED, fetch(newJob(), policy, uri(scp, "risk", FOUR_HOURS)).kind());
  }

  @Test
  void httpAsksWithHeadAndFetchesOnlyOnAMiss() throws Exception {
    try (HttpTestServer http = HttpTestServer.http(remoteRoot)) {
      UriStagingPolicy policy = UriStagingPolicy.networkOnly();
      String u = http.base() + "/data/history.csv";
      ManifestRecord miss = fetch(newJob(), policy, uri(u, null, FOUR_HOURS));
      assertEquals("uri-in", miss.kind());
      Path job = newJob();
      ManifestRecord hit = fetch(job, policy, uri(u, null, FOUR_HOURS));
      assertEquals(ManifestRecord.URI_IN_CACHED, hit.kind());
      assertEquals(miss.sha256(), hit.sha256());
      assertEquals(Checksums.sha256(job.resolve("history.csv")), hit.sha256());
      assertEquals(
          List.of(
              "HEAD /data/history.csv",
              "GET /data/history.csv",
              "HEAD /data/history.csv",
              "HEAD /data/history.csv"),
          http.requests(),
          "a miss asks, fetches and asks again (did it change meanwhile?); a hit only asks");

      Files.setLastModifiedTime(
          remoteRoot.resolve("data/history.csv"), FileTime.from(T0.plusSeconds(1)));
      assertEquals("uri-in", fetch(newJob(), policy, uri(u, null, FOUR_HOURS)).kind());

      // a HEAD the server refuses is no version: the GET runs (and reports its own answer)
      http.failNext(1);
      Path refused = newJob();
      assertEquals("uri-in", fetch(refused, policy, uri(u, null, FOUR_HOURS)).kind());
      assertTrue(Files.exists(refused.resolve("history.csv")));
      http.requireLogin("alice", "pw");
      StagingException denied =
          assertThrows(
              StagingException.class, () -> fetch(newJob(), policy, uri(u, null, FOUR_HOURS)));
      assertTrue(denied.getMessage().contains("HTTP 401"), denied.getMessage());
    }
  }

  @Test
  void ftpUsesSizeAndMdtm() throws Exception {
    try (FtpTestServer ftp = FtpTestServer.ftp(remoteRoot)) {
      UriStagingPolicy policy = UriStagingPolicy.networkOnly();
      String u = "ftp://127.0.0.1:" + ftp.port() + "/data/history.csv";
      ManifestRecord miss = fetch(newJob(), policy, uri(u, null, FOUR_HOURS));
      assertEquals("uri-in", miss.kind());
      ManifestRecord hit = fetch(newJob(), policy, uri(u, null, FOUR_HOURS));
      assertEquals(ManifestRecord.URI_IN_CACHED, hit.kind());
      assertEquals(miss.sha256(), hit.sha256());
      write("data/history.csv", "factor,day,level\nF1,2026-11-25,99\n");
      Files.setLastModifiedTime(
          remoteRoot.resolve("data/history.csv"), FileTime.from(T0.plusSeconds(3600)));
      Path job = newJob();
      assertEquals("uri-in", fetch(job, policy, uri(u, null, FOUR_HOURS)).kind());
      assertEquals(
          "factor,day,level\nF1,2026-11-25,99\n", Files.readString(job.resolve("history.csv")));
    }
  }

  @Test
  void fileUrisUseTheFileAttributes() throws Exception {
    UriStagingPolicy policy = new UriStagingPolicy(List.of(remoteRoot), null, null);
    String u = remoteRoot.resolve("data/history.csv").toUri().toString();
    assertEquals("uri-in", fetch(newJob(), policy, uri(u, null, FOUR_HOURS)).kind());
    assertEquals(
        ManifestRecord.URI_IN_CACHED, fetch(newJob(), policy, uri(u, null, FOUR_HOURS)).kind());
    Files.write(
        remoteRoot.resolve("data/history.csv"),
        "F2,2026-11-25,1\n".getBytes(StandardCharsets.UTF_8),
        java.nio.file.StandardOpenOption.APPEND);
    assertEquals("uri-in", fetch(newJob(), policy, uri(u, null, FOUR_HOURS)).kind());
  }
}
