package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.KeyPair;
import io.gantry.staging.RemoteTransfer.Direction;
import io.gantry.staging.RemoteTransfer.Protocol;
import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.testing.SshTestHost;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** scp and sftp against a real SSH server (Apache MINA SSHD) on loopback. */
class RemoteTransferTest {
  @TempDir Path jobDir;
  @TempDir Path remoteRoot;
  @TempDir Path config;
  SshTestHost host;
  TestCredentials credentials;
  byte[] payload;

  @BeforeEach
  void setUp() throws Exception {
    host = SshTestHost.start(remoteRoot);
    host.addUser("risk", "s3cret");
    Files.writeString(config.resolve("known_hosts"), host.knownHostsLine() + "\n");
    credentials = new TestCredentials().login("risk", SshCredentials.password(Secret.of("s3cret")));
    payload = new byte[3_000_000];
    new Random(3).nextBytes(payload);
    Files.createDirectories(remoteRoot.resolve("data"));
    Files.write(remoteRoot.resolve("data/market.bin"), payload);
  }

  @AfterEach
  void tearDown() {
    host.close();
  }

  GatewayOptions options() {
    return GatewayOptions.defaults()
        .withKnownHosts(config.resolve("known_hosts"), false)
        .withRetries(Duration.ofSeconds(5), 3, Duration.ofMillis(50));
  }

  RemoteTransfer transfer(
      Direction d, Protocol p, String user, String source, String target, boolean compress) {
    return new RemoteTransfer(1, d, p, host.host(), host.port(), user, source, target, compress);
  }

  Manifest stageIn(GatewayOptions options, RemoteTransfer... transfers) throws StagingException {
    try (StagingGateway g = new StagingGateway(credentials, options)) {
      return g.stageIn(new StageInPlan(List.of(transfers), List.of()), jobDir, null);
    }
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void transmitFetchesARemoteFileIntoTheJobDirectory(Protocol protocol) throws Exception {
    Manifest m =
        stageIn(
            options(),
            transfer(
                Direction.TRANSMIT, protocol, "risk", "/data/market.bin", "in/market.bin", false));
    assertArrayEquals(payload, Files.readAllBytes(jobDir.resolve("in/market.bin")));
    ManifestRecord r = m.records().get(0);
    assertEquals(payload.length, r.bytes());
    assertEquals(
        io.gantry.staging.internal.files.Checksums.sha256(jobDir.resolve("in/market.bin")),
        r.sha256());
    assertEquals("/data/market.bin", r.detail());
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void transmitCanCompressOnTheFlyIntoBlockedGzip(Protocol protocol) throws Exception {
    byte[] csv = "a,b\n1,2\n".repeat(50_000).getBytes(StandardCharsets.UTF_8);
    Files.write(remoteRoot.resolve("data/t.csv"), csv);
    stageIn(
        options(), transfer(Direction.TRANSMIT, protocol, "risk", "/data/t.csv", "t.csv.gz", true));
    Path local = jobDir.resolve("t.csv.gz");
    assertTrue(CompressedFiles.isGzip(local));
    assertTrue(Files.size(local) < csv.length / 10);
    try (var in = CompressedFiles.openDecompressed(local)) {
      assertArrayEquals(csv, in.readAllBytes());
    }
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void receiveSendsAJobFileToTheRemoteHost(Protocol protocol) throws Exception {
    Files.write(jobDir.resolve("result.bin"), payload);
    try (StagingGateway g = new StagingGateway(credentials, options())) {
      Manifest m =
          g.stageOut(
              new StageOutPlan(
                  "job-r",
                  List.of(),
                  List.of(
                      transfer(
                          Direction.RECEIVE,
                          protocol,
                          "risk",
                          "result.bin",
                          "/data/result.bin",
                          false),
                      transfer(
                          Direction.RECEIVE,
                          protocol,
                          "risk",
                          "result.bin",
                          "/data/result.bin.gz",
                          true))),
              jobDir,
              null);
      assertEquals(2, m.records().size());
    }
    assertArrayEquals(payload, Files.readAllBytes(remoteRoot.resolve("data/result.bin")));
    try (var in = CompressedFiles.openDecompressed(remoteRoot.resolve("data/result.bin.gz"))) {
      assertArrayEquals(payload, in.readAllBytes());
    }
    try (var s = Files.list(remoteRoot.resolve("data"))) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".part")));
    }
    try (var s = Files.list(jobDir)) {
      assertEquals(1, s.count(), "no compressed temporary copy is left in the job directory");
    }
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void receiveRefusesAJobFileReplacedByALinkToTheServersSecrets(
      Protocol protocol, @TempDir Path server) throws Exception {
    Path secret = Files.writeString(server.resolve("keystore.password"), "the-keystore-password");
    Files.createSymbolicLink(jobDir.resolve("result.bin"), secret);
    try (StagingGateway g = new StagingGateway(credentials, options())) {
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  g.stageOut(
                      new StageOutPlan(
                          "job-l",
                          List.of(),
                          List.of(
                              transfer(
                                  Direction.RECEIVE,
                                  protocol,
                                  "risk",
                                  "result.bin",
                                  "/data/stolen",
                                  false))),
                      jobDir,
                      null));
      assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }
    assertFalse(Files.exists(remoteRoot.resolve("data/stolen")));
  }

  @Test
  void privateKeyAuthenticationWorks() throws Exception {
    JSch jsch = new JSch();
    KeyPair key = KeyPair.genKeyPair(jsch, KeyPair.ECDSA, 256);
    ByteArrayOutputStream privateKey = new ByteArrayOutputStream();
    ByteArrayOutputStream publicKey = new ByteArrayOutputStream();
    key.writePrivateKey(privateKey);
    key.writePublicKey(publicKey, "gantry-test");
    host.authorizeKey(publicKey.toString(StandardCharsets.UTF_8));
    credentials.login("keyuser", SshCredentials.privateKey(privateKey.toByteArray(), null));
    stageIn(
        options(),
        transfer(Direction.TRANSMIT, Protocol.SFTP, "keyuser", "/data/market.bin", "k.bin", false));
    assertArrayEquals(payload, Files.readAllBytes(jobDir.resolve("k.bin")));
  }

  @Test
  void aWrongPasswordFailsClearlyAndAtOnce() throws Exception {
    credentials.login("risk", SshCredentials.password(Secret.of("wrong")));
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    options(),
                    transfer(
                        Direction.TRANSMIT,
                        Protocol.SCP,
                        "risk",
                        "/data/market.bin",
                        "x.bin",
                        false)));
    assertTrue(e.getMessage().contains("authentication failed for risk@127.0.0.1"), e.getMessage());
    assertFalse(e.getMessage().contains("wrong"), e.getMessage());
    assertEquals(List.of(), StagedFiles.listAll(jobDir));
  }

  @Test
  void anUnknownHostKeyFailsUnlessExplicitlyAccepted() throws Exception {
    Files.writeString(config.resolve("known_hosts"), "");
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    options(),
                    transfer(
                        Direction.TRANSMIT,
                        Protocol.SFTP,
                        "risk",
                        "/data/market.bin",
                        "x.bin",
                        false)));
    assertTrue(e.getMessage().contains("is not in the known_hosts file"), e.getMessage());
    assertFalse(Files.exists(jobDir.resolve("x.bin")));

    stageIn(
        options().withKnownHosts(null, true),
        transfer(Direction.TRANSMIT, Protocol.SFTP, "risk", "/data/market.bin", "x.bin", false));
    assertArrayEquals(payload, Files.readAllBytes(jobDir.resolve("x.bin")));
  }

  @Test
  void aMissingKnownHostsFileFailsClearly() throws Exception {
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    options().withKnownHosts(config.resolve("absent"), false),
                    transfer(
                        Direction.TRANSMIT,
                        Protocol.SFTP,
                        "risk",
                        "/data/market.bin",
                        "x.bin",
                        false)));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void aConnectionDroppedWhileSendingIsRetried(Protocol protocol) throws Exception {
    Files.write(jobDir.resolve("result.bin"), payload);
    host.dropNextConnections(1, 500_000);
    try (StagingGateway g = new StagingGateway(credentials, options())) {
      g.stageOut(
          new StageOutPlan(
              "job-d",
              List.of(),
              List.of(
                  transfer(
                      Direction.RECEIVE, protocol, "risk", "result.bin", "/data/sent.bin", false))),
          jobDir,
          null);
    }
    assertEquals(1, host.droppedConnections());
    assertArrayEquals(payload, Files.readAllBytes(remoteRoot.resolve("data/sent.bin")));
  }

  @Test
  void aChangedHostKeyFails() throws Exception {
    Files.writeString(config.resolve("known_hosts"), host.knownHostsLineWithOtherKey() + "\n");
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    options(),
                    transfer(
                        Direction.TRANSMIT,
                        Protocol.SCP,
                        "risk",
                        "/data/market.bin",
                        "x.bin",
                        false)));
    assertTrue(e.getMessage().contains("DIFFERS"), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void aMissingRemoteFileFailsClearly(Protocol protocol) throws Exception {
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    options(),
                    transfer(
                        Direction.TRANSMIT,
                        protocol,
                        "risk",
                        "/data/nope.csv",
                        "nope.csv",
                        false)));
    assertTrue(e.getMessage().contains("/data/nope.csv"), e.getMessage());
    assertEquals(List.of(), StagedFiles.listAll(jobDir));
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void aConnectionDroppedMidTransferIsRetried(Protocol protocol) throws Exception {
    host.dropNextConnections(1, 500_000);
    stageIn(
        options(),
        transfer(Direction.TRANSMIT, protocol, "risk", "/data/market.bin", "m.bin", false));
    assertEquals(1, host.droppedConnections());
    assertArrayEquals(payload, Files.readAllBytes(jobDir.resolve("m.bin")));
    assertEquals(List.of("m.bin"), StagedFiles.listAll(jobDir));
  }

  @ParameterizedTest
  @EnumSource(Protocol.class)
  void connectionsThatKeepDroppingFailWithoutLeavingAFile(Protocol protocol) throws Exception {
    host.dropNextConnections(10, 500_000);
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    options(),
                    transfer(
                        Direction.TRANSMIT, protocol, "risk", "/data/market.bin", "m.bin", false)));
    assertTrue(e.getMessage().contains("failed after 3 attempts"), e.getMessage());
    assertEquals(List.of(), StagedFiles.listAll(jobDir));
  }
}
