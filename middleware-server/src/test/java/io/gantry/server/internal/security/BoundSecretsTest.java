package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.Problem;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encrypted passwords bound to their owner and destination, attacked as a second user would: a
 * victim's {@code ENC(...)} value copied into the attacker's own job, aimed at a listener of the
 * attacker's own on loopback. Each attack must be refused at submission with a message that says
 * why, and the listener must never see a connection (the password would be in it).
 */
class BoundSecretsTest {
  private static final String PASSWORD = "correct horse battery staple";
  private static final String VICTIMS_DB = "jdbc:postgresql://db.bank.example:5432/risk";
  private static final String VICTIMS_SFTP = "risk@sftp.bank.example:22";
  @TempDir static Path dir;
  static GantryTestServer server;
  static PublicKey key;
  private Listener listener;

  @BeforeAll
  static void start() throws Exception {
    HashMap<String, String> settings = new HashMap<>();
    // the jobs here name their own database (a listener on loopback): allowed explicitly
    settings.put("staging.inline-data-sources", "true");
    settings.put("staging.allowed-jdbc-urls", "jdbc:postgresql://127.0.0.1:*/*");
    // the listener is no database, and a job here stays queued for a database that is nowhere:
    // these tests are about secrets bound to owner and destination, which are refused before any
    // check would connect (ConnectionCheckAtSubmitTest tests the check itself)
    settings.put("staging.check-connections", "false");
    server =
        GantryTestServer.builder(dir)
            .secure()
            .settings(settings)
            .account(new TestAccount("alice", PASSWORD, false, null))
            .account(new TestAccount("mallory", PASSWORD, false, null))
            .account(new TestAccount("root", PASSWORD, true, null))
            .start();
    key = EncryptedSecret.publicKeyFromPem(as("alice").getServerInfo().passwordPublicKey);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @BeforeEach
  void listen() throws IOException {
    listener = new Listener();
  }

  @AfterEach
  void stopListening() throws IOException {
    listener.close();
  }

  static JobManagement as(String user) {
    return JobManagementClients.of(server, new Login.Basic(user, PASSWORD));
  }

  private static String alicesValue(String destination) {
    return EncryptedSecret.encrypt(
        key, "alice's database password".toCharArray(), SecretBinding.of("alice", destination));
  }

  @Test
  void aValueCopiedIntoAnotherUsersJobIsRefusedAndNothingConnects() throws Exception {
    String stolen = alicesValue(VICTIMS_DB);
    String report = refused("mallory", sqlJob(listener.jdbcUrl(), stolen));
    assertTrue(
        report.contains("was encrypted for user alice, not for mallory who owns this job"), report);
    listener.assertNoConnection();
  }

  @Test
  void aValueWhoseClearUserAndDestinationWereRewrittenDoesNotDecryptAndNothingConnects()
      throws Exception {
    byte[] ciphertext = EncryptedSecret.parse(alicesValue(VICTIMS_DB)).ciphertext();
    String relabelled =
        EncryptedSecret.format(SecretBinding.jdbc("mallory", listener.jdbcUrl()), ciphertext);
    String report = refused("mallory", sqlJob(listener.jdbcUrl(), relabelled));
    assertTrue(report.contains("does not decrypt with this server's key for user mallory"), report);
    listener.assertNoConnection();
  }

  @Test
  void theOwnersValueAimedAtAnotherDatabaseIsRefusedAndNothingConnects() throws Exception {
    String report = refused("alice", sqlJob(listener.jdbcUrl(), alicesValue(VICTIMS_DB)));
    assertTrue(
        report.contains(
            "was encrypted for destination " + VICTIMS_DB + ", not for " + listener.jdbcUrl()),
        report);
    listener.assertNoConnection();
  }

  @Test
  void theOwnersSshValueAimedAtAnotherHostIsRefusedAndNothingConnects() throws Exception {
    String report = refused("alice", scpJob(listener.port(), alicesValue(VICTIMS_SFTP)));
    assertTrue(
        report.contains(
            "was encrypted for destination "
                + VICTIMS_SFTP
                + ", not for risk@127.0.0.1:"
                + listener.port()),
        report);
    listener.assertNoConnection();
  }

  @Test
  void aValueInTheOldUnboundFormIsRefusedWithHowToEncryptItAgain() throws Exception {
    String old = "ENC(RSA-OAEP-256:" + Base64.getEncoder().encodeToString(new byte[384]) + ")";
    String report = refused("alice", sqlJob(listener.jdbcUrl(), old));
    assertTrue(
        report.contains("old form") && report.contains("gantry encrypt-password --for-user USER"),
        report);
    listener.assertNoConnection();
  }

  @Test
  void theOwnerReadsTheirEncryptedValuesBackAndOthersSeeThemRedacted() throws Exception {
    JobManagement alice = as("alice");
    assertTrue(
        alice.validateJob(sqlJob(listener.jdbcUrl(), alicesValue(listener.jdbcUrl()))).valid,
        "valid for its owner and destination");
    listener.assertNoConnection();
    String value = alicesValue("jdbc:postgresql://127.0.0.1:9/nowhere");
    String id =
        alice.submitJob(
            TestJobs.documentOf(
                sqlXml("jdbc:postgresql://127.0.0.1:9/nowhere", value, "alice-own")));
    JobDocument own = alice.getJobDefinition(id);
    assertEquals(value, password(own));
    JobDocument admins = as("root").getJobDefinition(id);
    assertEquals("REDACTED", password(admins));
    String report = messages(as("root").validateJob(admins).problems);
    assertFalse(
        report.contains("plain-text"), "REDACTED is not called a plain-text password: " + report);
    assertTrue(report.contains("holds REDACTED"), report);
  }

  @Test
  void aPasswordOptionInADestinationUrlIsNotRepeatedInTheMessage() throws Exception {
    String url = listener.jdbcUrl() + "?password=url-option-secret";
    String report = refused("alice", sqlJob(url, alicesValue(VICTIMS_DB)));
    // a password in an inline URL is refused by the URL rules before the binding is checked
    assertTrue(report.contains("URL option password is not allowed"), report);
    assertFalse(report.contains("url-option-secret"), report);
    listener.assertNoConnection();
  }

  private static String password(JobDocument document) {
    return document
        .getJobDefinition()
        .getElementsByTagNameNS("urn:gantry:jsdl:ext:1", "Password")
        .item(0)
        .getTextContent();
  }

  private static String refused(String user, JobDocument job) {
    JobManagement client = as(user);
    String validation = messages(client.validateJob(job).problems);
    InvalidJobFault fault = assertThrows(InvalidJobFault.class, () -> client.submitJob(job));
    assertEquals(
        validation, messages(fault.getFaultInfo().problems), "validate and submit say the same");
    return validation;
  }

  private static String messages(List<Problem> problems) {
    return problems.stream().map(p -> p.message).toList().toString();
  }

  private static JobDocument sqlJob(String jdbcUrl, String value) {
    return TestJobs.documentOf(sqlXml(jdbcUrl, value, "books"));
  }

  private static String sqlXml(String jdbcUrl, String value, String name) {
    return TestJobs.job(name)
        .posix(10, "/bin/true")
        .xml()
        .replace(
            "</jsdl:JobDescription>",
            """
        <gx:PreDataStaging><gx:SQLQueryDataStaging>
          <gx:DataSource><gx:JDBCURL>%s</gx:JDBCURL><gx:UserId>risk</gx:UserId>
            <gx:Password>%s</gx:Password></gx:DataSource>
          <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
          <gx:SQLStatement>SELECT 1</gx:SQLStatement>
          <gx:SQLOutputFileName>one.csv</gx:SQLOutputFileName>
        </gx:SQLQueryDataStaging></gx:PreDataStaging></jsdl:JobDescription>"""
                .formatted(jdbcUrl, value));
  }

  private static JobDocument scpJob(int port, String value) {
    return TestJobs.documentOf(
        TestJobs.job("copy")
            .posix(10, "/bin/true")
            .xml()
            .replace(
                "</jsdl:JobDescription>",
                """
        <gx:PreDataStaging><gx:SCPDataStaging><gx:ArrangingOrder>1</gx:ArrangingOrder>
          <gx:Direction>transmit</gx:Direction><gx:RemoteHostName>127.0.0.1</gx:RemoteHostName>
          <gx:RemotePort>%d</gx:RemotePort><gx:RemoteUserId>risk</gx:RemoteUserId>
          <gx:RemotePassword>%s</gx:RemotePassword>
          <gx:SourceFileName>/data/prices.csv</gx:SourceFileName><gx:TargetFileName>prices.csv</gx:TargetFileName>
        </gx:SCPDataStaging></gx:PreDataStaging></jsdl:JobDescription>"""
                    .formatted(port, value)));
  }

  /** The attacker's own server on loopback: counts every connection it is offered. */
  private static final class Listener implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final AtomicInteger connections = new AtomicInteger();
    private final Thread acceptor = new Thread(this::accept, "attacker-listener");

    Listener() throws IOException {
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void accept() {
      while (!socket.isClosed()) {
        try (Socket s = socket.accept()) {
          connections.incrementAndGet();
        } catch (IOException e) {
          return;
        }
      }
    }

    int port() {
      return socket.getLocalPort();
    }

    String jdbcUrl() {
      return "jdbc:postgresql://127.0.0.1:" + port() + "/risk";
    }

    /**
     * Waits a moment for a connection that a late stage-in might still make, then checks there was
     * none.
     */
    void assertNoConnection() throws InterruptedException {
      Thread.sleep(1000);
      assertEquals(0, connections.get(), "the attacker's listener was connected to");
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
