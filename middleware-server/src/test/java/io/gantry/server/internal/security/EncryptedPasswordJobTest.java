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
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.H2TcpServer;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/** Passwords in job descriptions: encrypted by the client, decrypted by the server only at use. */
class EncryptedPasswordJobTest {
  private static final String DB_PASSWORD = "Sëcret-42 known to the database only";

  @TempDir Path dir;
  private GantryTestServer server;
  private JobManagement client;
  private String dbUrl;
  private H2TcpServer databases;

  @BeforeEach
  void start() throws Exception {
    databases = H2TcpServer.start(dir.resolve("databases"));
    dbUrl = databases.jdbcUrl("risk");
    try (Connection c = DriverManager.getConnection(dbUrl, "risk", DB_PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("create table book(id int primary key, name varchar(20))");
      s.execute("insert into book values (1, 'rates'), (2, 'equity')");
    }
    server =
        GantryTestServer.builder(dir)
            .dataDir(dir.resolve("server"))
            .settings(
                databases.inlineStagingSettings()) // a job's own data source, allowed explicitly
            .start();
    client = JobManagementClients.of(server);
  }

  @AfterEach
  void stop() {
    server.close();
    databases.close();
  }

  private String encryptForServer(String secret) throws Exception {
    String pem = client.getServerInfo().passwordPublicKey;
    PublicKey key =
        KeyFactory.getInstance("RSA")
            .generatePublic(new X509EncodedKeySpec(PasswordKeyPair.fromPem(pem)));
    return EncryptedSecret.encrypt(key, secret.toCharArray(), SecretBinding.jdbc("local", dbUrl));
  }

  private Element job(String encryptedPassword) throws Exception {
    String xml =
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
            xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix" xmlns:gx="urn:gantry:jsdl:ext:1">
          <jsdl:JobDescription>
            <jsdl:JobIdentification><jsdl:JobName>books</jsdl:JobName></jsdl:JobIdentification>
            <jsdl:Application><posix:POSIXApplication>
              <posix:Executable>/bin/true</posix:Executable>
            </posix:POSIXApplication></jsdl:Application>
            <gx:PreDataStaging>
              <gx:SQLQueryDataStaging>
                <gx:DataSource><gx:JDBCURL>%s</gx:JDBCURL><gx:UserId>risk</gx:UserId>
                  <gx:Password>%s</gx:Password></gx:DataSource>
                <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
                <gx:SQLStatement>SELECT id, name FROM book ORDER BY id</gx:SQLStatement>
                <gx:SQLOutputFileName>books.csv</gx:SQLOutputFileName>
              </gx:SQLQueryDataStaging>
            </gx:PreDataStaging>
          </jsdl:JobDescription>
        </jsdl:JobDefinition>
        """
            .formatted(dbUrl, encryptedPassword);
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder()
        .parse(new InputSource(new StringReader(xml)))
        .getDocumentElement();
  }

  @Test
  void passwordEncryptedWithThePublishedKeyOpensTheDatabaseAndIsStoredNowhereInClear()
      throws Exception {
    String id = client.submitJob(new JobDocument(job(encryptForServer(DB_PASSWORD))));
    JobStatusInfo status = TestJobs.awaitFinal(client, id, Duration.ofSeconds(20));
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    assertEquals(
        "ID,NAME\n1,rates\n2,equity\n", // H2 labels unquoted columns in upper case
        Files.readString(dir.resolve("server/jobs").resolve(id).resolve("books.csv"))
            .replace("\r\n", "\n"));

    assertNoFileContains(dir.resolve("server"), DB_PASSWORD);
  }

  @Test
  void tamperedPasswordIsRefusedAtSubmitAndNothingIsQueued() throws Exception {
    byte[] bytes = EncryptedSecret.parse(encryptForServer(DB_PASSWORD)).ciphertext();
    bytes[7] ^= 0x40;
    InvalidJobFault fault =
        assertThrows(
            InvalidJobFault.class,
            () ->
                client.submitJob(
                    new JobDocument(
                        job(EncryptedSecret.format(SecretBinding.jdbc("local", dbUrl), bytes)))));
    String report = fault.getFaultInfo().problems.stream().map(p -> p.message).toList().toString();
    assertTrue(report.contains("does not decrypt with this server's key"), report);
    assertEquals(0, client.listJobs(java.util.List.of(), 0, 10, false).total);
  }

  private static void assertNoFileContains(Path root, String secret) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String text =
            new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
        String utf8 =
            new String(
                secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(text.contains(utf8), "the clear password is in " + f);
      }
    }
  }
}
