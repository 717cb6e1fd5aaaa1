package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.UriTransfer.Direction;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.testing.FtpTestServer;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.SshTestHost;
import io.gantry.testing.TestKeystore;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Standard DataStaging through the gateway, each scheme against a real server started here. */
class UriStagingTest {
  @TempDir Path jobDir;
  @TempDir Path remote;
  @TempDir Path work;
  TestCredentials credentials = new TestCredentials();

  GatewayOptions options() {
    return GatewayOptions.defaults()
        .withKnownHosts(work.resolve("known_hosts"), false)
        .withRetries(Duration.ofSeconds(2), 3, Duration.ofMillis(20));
  }

  static UriTransfer in(String uri, String file, CreationFlag flag, String user) {
    return new UriTransfer(
        1, Direction.IN, URI.create(uri), file, flag, user == null ? null : "login", user);
  }

  static UriTransfer out(String uri, String file, String user) {
    return new UriTransfer(
        1,
        Direction.OUT,
        URI.create(uri),
        file,
        CreationFlag.OVERWRITE,
        user == null ? null : "login",
        user);
  }

  Manifest stageIn(UriStagingPolicy policy, UriTransfer... transfers) throws StagingException {
    try (StagingGateway g = new StagingGateway(credentials, options(), policy)) {
      return g.stageIn(new StageInPlan(List.of(), List.of(), List.of(transfers)), jobDir, null);
    }
  }

  Manifest stageOut(UriStagingPolicy policy, List<StagedName> delete, UriTransfer... transfers)
      throws StagingException {
    try (StagingGateway g = new StagingGateway(credentials, options(), policy)) {
      return g.stageOut(
          new StageOutPlan("job-1", List.of(), List.of(), List.of(transfers), delete),
          jobDir,
          null);
    }
  }

  UriStagingPolicy roots(Path... roots) {
    return new UriStagingPolicy(List.of(roots), null, null);
  }

  @Test
  void httpGetStagesInAndPutStagesOutWithChecksumsInTheManifest() throws Exception {
    Files.writeString(remote.resolve("market.csv"), "a,b\n1,2\n");
    try (HttpTestServer http = HttpTestServer.http(remote)) {
      Manifest in =
          stageIn(
              UriStagingPolicy.networkOnly(),
              in(http.base() + "/market.csv", "in/market.csv", CreationFlag.OVERWRITE, null));
      assertEquals("a,b\n1,2\n", Files.readString(jobDir.resolve("in/market.csv")));
      ManifestRecord r = in.records().get(0);
      assertEquals("uri-in", r.kind());
      assertEquals(Checksums.sha256(jobDir.resolve("in/market.csv")), r.sha256());
      assertEquals(8, r.bytes());
      Files.writeString(jobDir.resolve("var.csv"), "var\n42\n");
      stageOut(
          UriStagingPolicy.networkOnly(),
          List.of(),
          out(http.base() + "/results/var.csv", "var.csv", null));
      assertEquals("var\n42\n", Files.readString(remote.resolve("results/var.csv")));
      assertEquals(List.of("GET /market.csv", "PUT /results/var.csv"), http.requests());
    }
  }

  @Test
  void httpsIsCheckedAgainstTheOperatorTrustStoreAndAnUntrustedCertificateFailsAtOnce()
      throws Exception {
    TestKeystore tls = TestKeystore.generate(work);
    Files.writeString(remote.resolve("f.txt"), "secure");
    credentials.login("alice", SshCredentials.password(Secret.of("pw")));
    try (HttpTestServer https = HttpTestServer.https(remote, tls)) {
      https.requireLogin("alice", "pw");
      stageIn(
          new UriStagingPolicy(List.of(), tls.trustStore(), null),
          in(https.base() + "/f.txt", "f.txt", CreationFlag.OVERWRITE, "alice"));
      assertEquals("secure", Files.readString(jobDir.resolve("f.txt")));
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      UriStagingPolicy.networkOnly(),
                      in(https.base() + "/f.txt", "g.txt", CreationFlag.OVERWRITE, "alice")));
      assertTrue(
          e.getMessage().contains("TLS with 127.0.0.1:" + https.port() + " failed"),
          e.getMessage());
      assertEquals(
          1,
          https.requests().size(),
          "the untrusted server never saw the request (nor the password)");
    }
  }

  @Test
  void aPasswordIsNeverSentOverPlainHttp() throws Exception {
    credentials.login("alice", SshCredentials.password(Secret.of("pw")));
    try (HttpTestServer http = HttpTestServer.http(remote)) {
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      UriStagingPolicy.networkOnly(),
                      in(http.base() + "/f.txt", "f.txt", CreationFlag.OVERWRITE, "alice")));
      assertTrue(e.getMessage().contains("a password is sent only over https"), e.getMessage());
      assertEquals(List.of(), http.requests());
    }
  }

  @Test
  void aFailingServerIsRetriedAndThenFailsTheStepWithTheReason() throws Exception {
    Files.writeString(remote.resolve("f.txt"), "x");
    try (HttpTestServer http = HttpTestServer.http(remote)) {
      http.failNext(2);
      stageIn(
          UriStagingPolicy.networkOnly(),
          in(http.base() + "/f.txt", "f.txt", CreationFlag.OVERWRITE, null));
      assertEquals(3, http.requests().size());
      http.failNext(10);
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      UriStagingPolicy.networkOnly(),
                      in(http.base() + "/f.txt", "g.txt", CreationFlag.OVERWRITE, null)));
      assertTrue(e.getMessage().contains("failed after 3 attempts"), e.getMessage());
      assertTrue(e.getMessage().contains("answered HTTP 503"), e.getMessage());
      assertFalse(Files.exists(jobDir.resolve("g.txt")));
      try (var files = Files.list(jobDir)) {
        assertTrue(
            files.noneMatch(p -> p.getFileName().toString().endsWith(".part")),
            "no temporary file left");
      }
    }
  }

  @Test
  void aRedirectIsFollowedOnlyToAnAllowedHost() throws Exception {
    Files.writeString(remote.resolve("real.txt"), "moved");
    try (HttpTestServer http = HttpTestServer.http(remote)) {
      http.redirect("/old.txt", "/real.txt");
      http.redirect("/away.txt", "http://localhost:" + http.port() + "/real.txt");
      UriStagingPolicy onlyIp =
          new UriStagingPolicy(
              List.of(),
              null,
              (host, port) ->
                  host.equals("127.0.0.1")
                      ? Optional.empty()
                      : Optional.of(host + " is not allowed"));
      stageIn(onlyIp, in(http.base() + "/old.txt", "f.txt", CreationFlag.OVERWRITE, null));
      assertEquals("moved", Files.readString(jobDir.resolve("f.txt")));
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      onlyIp,
                      in(http.base() + "/away.txt", "g.txt", CreationFlag.OVERWRITE, null)));
      assertTrue(
          e.getMessage().contains("redirects to another host: localhost is not allowed"),
          e.getMessage());
    }
  }

  @Test
  void aHostTheRuleRefusesIsNeverContacted() throws Exception {
    try (HttpTestServer http = HttpTestServer.http(remote)) {
      UriStagingPolicy none =
          new UriStagingPolicy(
              List.of(),
              null,
              (host, port) -> Optional.of("could not connect to " + host + ":" + port));
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(none, in(http.base() + "/f.txt", "f.txt", CreationFlag.OVERWRITE, null)));
      assertTrue(
          e.getMessage().contains("could not connect to 127.0.0.1:" + http.port()), e.getMessage());
      assertEquals(List.of(), http.requests());
    }
  }

  @Test
  void ftpStagesInAndOutAnonymouslyAndFtpsWithALogin() throws Exception {
    Files.writeString(remote.resolve("in.txt"), "ftp data");
    try (FtpTestServer ftp = FtpTestServer.ftp(remote)) {
      String base = "ftp://127.0.0.1:" + ftp.port();
      stageIn(
          UriStagingPolicy.networkOnly(),
          in(base + "/in.txt", "in.txt", CreationFlag.OVERWRITE, null));
      assertEquals("ftp data", Files.readString(jobDir.resolve("in.txt")));
      Files.writeString(jobDir.resolve("out.txt"), "result");
      stageOut(UriStagingPolicy.networkOnly(), List.of(), out(base + "/out.txt", "out.txt", null));
      assertEquals("result", Files.readString(remote.resolve("out.txt")));
    }
    TestKeystore tls = TestKeystore.generate(work);
    credentials.login("bob", SshCredentials.password(Secret.of("ftp-pw")));
    try (FtpTestServer ftps = FtpTestServer.ftps(remote, tls)) {
      ftps.addUser("bob", "ftp-pw");
      String base = "ftps://127.0.0.1:" + ftps.port();
      UriStagingPolicy trusted = new UriStagingPolicy(List.of(), tls.trustStore(), null);
      stageIn(trusted, in(base + "/in.txt", "secure.txt", CreationFlag.OVERWRITE, "bob"));
      assertEquals("ftp data", Files.readString(jobDir.resolve("secure.txt")));
      stageOut(trusted, List.of(), out(base + "/secure-out.txt", "out.txt", "bob"));
      assertEquals("result", Files.readString(remote.resolve("secure-out.txt")));
    }
  }

  @Test
  void scpAndSftpUrisUseTheSshStagingWithItsHostKeyCheck() throws Exception {
    Path sshRoot = remote.resolve("ssh");
    try (SshTestHost ssh = SshTestHost.start(sshRoot)) {
      ssh.addUser("risk", "s3cret");
      Files.writeString(work.resolve("known_hosts"), ssh.knownHostsLine() + "\n");
      credentials.login("risk", SshCredentials.password(Secret.of("s3cret")));
      Files.writeString(sshRoot.resolve("data.txt"), "over ssh");
      for (String scheme : List.of("scp", "sftp")) {
        String base = scheme + "://risk@127.0.0.1:" + ssh.port();
        stageIn(
            UriStagingPolicy.networkOnly(),
            in(base + "/data.txt", scheme + ".txt", CreationFlag.OVERWRITE, "risk"));
        assertEquals("over ssh", Files.readString(jobDir.resolve(scheme + ".txt")));
        stageOut(
            UriStagingPolicy.networkOnly(),
            List.of(),
            out(base + "/back-" + scheme + ".txt", scheme + ".txt", "risk"));
        assertEquals("over ssh", Files.readString(sshRoot.resolve("back-" + scheme + ".txt")));
      }
      Files.writeString(work.resolve("known_hosts"), ssh.knownHostsLineWithOtherKey() + "\n");
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      UriStagingPolicy.networkOnly(),
                      in(
                          "sftp://risk@127.0.0.1:" + ssh.port() + "/data.txt",
                          "x.txt",
                          CreationFlag.OVERWRITE,
                          "risk")));
      assertTrue(e.getMessage().contains("DIFFERS"), e.getMessage());
    }
  }

  @Test
  void fileUrisWorkInsideTheRootsOnly() throws Exception {
    Path root = Files.createDirectories(remote.resolve("shared"));
    Files.writeString(root.resolve("in.txt"), "shared data");
    Files.writeString(work.resolve("secret.txt"), "not yours");
    stageIn(
        roots(root),
        in("file://" + root.resolve("in.txt"), "in.txt", CreationFlag.OVERWRITE, null));
    assertEquals("shared data", Files.readString(jobDir.resolve("in.txt")));
    stageOut(
        roots(root), List.of(), out("file://" + root.resolve("out/in-copy.txt"), "in.txt", null));
    assertEquals("shared data", Files.readString(root.resolve("out/in-copy.txt")));

    StagingException outside =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    roots(root),
                    in(
                        "file://" + work.resolve("secret.txt"),
                        "s.txt",
                        CreationFlag.OVERWRITE,
                        null)));
    assertTrue(
        outside.getMessage().contains("outside the directories of staging.file-roots"),
        outside.getMessage());
    StagingException dotdot =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    roots(root),
                    in(
                        "file://" + root + "/../" + work.getFileName() + "/secret.txt",
                        "s.txt",
                        CreationFlag.OVERWRITE,
                        null)));
    assertTrue(dotdot.getMessage().contains("outside"), dotdot.getMessage());
    StagingException off =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    roots(),
                    in("file://" + root.resolve("in.txt"), "s.txt", CreationFlag.OVERWRITE, null)));
    assertTrue(off.getMessage().contains("no staging.file-roots set"), off.getMessage());
    assertFalse(Files.exists(jobDir.resolve("s.txt")));
  }

  @Test
  void aSymbolicLinkInsideARootCannotLeadOutOfIt() throws Exception {
    Path root = Files.createDirectories(remote.resolve("shared"));
    Files.writeString(work.resolve("secret.txt"), "not yours");
    Files.createSymbolicLink(root.resolve("link.txt"), work.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("dir"), work);
    for (String name : List.of("link.txt", "dir/secret.txt")) {
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      roots(root),
                      in("file://" + root.resolve(name), "s.txt", CreationFlag.OVERWRITE, null)));
      assertTrue(e.getMessage().contains("outside"), e.getMessage());
    }
    Files.writeString(jobDir.resolve("r.txt"), "overwrite attempt");
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageOut(
                    roots(root),
                    List.of(),
                    out("file://" + root.resolve("dir/secret.txt"), "r.txt", null)));
    assertTrue(e.getMessage().contains("outside"), e.getMessage());
    assertEquals("not yours", Files.readString(work.resolve("secret.txt")));
  }

  @Test
  void creationFlagsDecideWhatHappensToAnExistingFile() throws Exception {
    Path root = Files.createDirectories(remote.resolve("shared"));
    Files.writeString(root.resolve("more.txt"), "new\n");
    String uri = "file://" + root.resolve("more.txt");
    Files.writeString(jobDir.resolve("f.txt"), "old\n");
    stageIn(roots(root), in(uri, "f.txt", CreationFlag.APPEND, null));
    assertEquals("old\nnew\n", Files.readString(jobDir.resolve("f.txt")));
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageIn(roots(root), in(uri, "f.txt", CreationFlag.DONT_OVERWRITE, null)));
    assertTrue(
        e.getMessage().contains("f.txt exists and the CreationFlag is dontOverwrite"),
        e.getMessage());
    assertEquals("old\nnew\n", Files.readString(jobDir.resolve("f.txt")));
    stageIn(roots(root), in(uri, "f.txt", CreationFlag.OVERWRITE, null));
    assertEquals("new\n", Files.readString(jobDir.resolve("f.txt")));
    stageIn(roots(root), in(uri, "g.txt", CreationFlag.DONT_OVERWRITE, null));
    assertEquals("new\n", Files.readString(jobDir.resolve("g.txt")));
  }

  @Test
  void deleteOnTerminationRemovesTheMarkedFilesOnlyWhenAskedOnceTheJobHasTerminated()
      throws Exception {
    Path root = Files.createDirectories(remote.resolve("shared"));
    Files.writeString(jobDir.resolve("big.bin"), "scratch");
    Files.writeString(jobDir.resolve("result.txt"), "keep");
    List<StagedName> marked =
        List.of(
            StagedName.inJobDirectory("big.bin"),
            StagedName.inJobDirectory("result.txt"),
            StagedName.inJobDirectory("never-written.txt"));
    StageOutPlan plan =
        new StageOutPlan(
            "job-1",
            List.of(),
            List.of(),
            List.of(out("file://" + root.resolve("result.txt"), "result.txt", null)),
            marked);
    try (StagingGateway g = new StagingGateway(credentials, options(), roots(root))) {
      g.stageOut(plan, jobDir, null);
      assertEquals(
          "keep", Files.readString(root.resolve("result.txt")), "sent before it was deleted");
      assertTrue(Files.exists(jobDir.resolve("result.txt")), "stage-out alone deletes nothing");
      assertEquals(List.of(marked.get(0), marked.get(1)), g.deleteOnTermination(plan, jobDir));
    }
    assertFalse(Files.exists(jobDir.resolve("big.bin")));
    assertFalse(Files.exists(jobDir.resolve("result.txt")));
  }

  @Test
  void aFileNameWithAFileSystemLandsInItsDirectoryAndCannotLeaveIt() throws Exception {
    Path root = Files.createDirectories(remote.resolve("shared"));
    Path scratch = Files.createDirectories(work.resolve("scratch"));
    NamedFileSystem fs = new NamedFileSystem("SCRATCH", scratch);
    Files.writeString(root.resolve("in.txt"), "input\n");
    stageIn(
        roots(root),
        new UriTransfer(
            1,
            Direction.IN,
            URI.create("file://" + root.resolve("in.txt")),
            "data/in.txt",
            CreationFlag.OVERWRITE,
            null,
            null,
            fs));
    assertEquals("input\n", Files.readString(scratch.resolve("data/in.txt")));
    assertFalse(Files.exists(jobDir.resolve("data/in.txt")), "not in the job directory");

    Files.writeString(scratch.resolve("out.txt"), "output\n");
    Manifest out =
        stageOut(
            roots(root),
            List.of(),
            new UriTransfer(
                2,
                Direction.OUT,
                URI.create("file://" + root.resolve("out.txt")),
                "out.txt",
                CreationFlag.OVERWRITE,
                null,
                null,
                fs));
    assertEquals("output\n", Files.readString(root.resolve("out.txt")));
    assertEquals("SCRATCH:out.txt", out.records().get(0).file());

    Path outside = Files.createDirectories(work.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret");
    Files.createSymbolicLink(scratch.resolve("escape"), outside);
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageOut(
                    roots(root),
                    List.of(),
                    new UriTransfer(
                        3,
                        Direction.OUT,
                        URI.create("file://" + root.resolve("leak.txt")),
                        "escape/secret.txt",
                        CreationFlag.OVERWRITE,
                        null,
                        null,
                        fs)));
    assertTrue(e.getMessage().contains("escape/secret.txt"), e.getMessage());
    assertFalse(Files.exists(root.resolve("leak.txt")));
    assertThrows(
        StagingException.class,
        () ->
            stageIn(
                roots(root),
                new UriTransfer(
                    4,
                    Direction.IN,
                    URI.create("file://" + root.resolve("in.txt")),
                    "escape/planted.txt",
                    CreationFlag.OVERWRITE,
                    null,
                    null,
                    fs)));
    assertFalse(
        Files.exists(outside.resolve("planted.txt")),
        "no write through a link out of the file system");
  }

  @Test
  void anUnsupportedSchemeIsRefusedNamingWhatIsSupported() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> in("gsiftp://grid.example/data", "f", CreationFlag.OVERWRITE, null));
    assertEquals(
        "Gantry cannot stage 'gsiftp:' URIs; it stages file:, http:, https:, scp:, sftp:, ftp:, ftps:, gantry-job: URIs",
        e.getMessage());
  }
}
