package io.gantry.server.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.H2TcpServer;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log an operator keeps (docs/operations.md, "Logs"): one server with {@code log.file} in JSON
 * lines runs a job that stages from a database with a password. Every line of the file is one JSON
 * object; each line about the job carries its id and user (from the SOAP call, the scheduler, the
 * stage-in, the launch and the stage-out); a clean start logs no stack trace; the data source's
 * password and the user's appear nowhere in the log.
 */
class OperatorLogTest {
  private static final String DB_PASSWORD = "Db-Log-Secret-4e1d7b02";
  private static final String USER_PASSWORD = "User-Log-Secret-8a2c6f13";
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static H2TcpServer databases;
  private static GantryTestServer server;
  private static Path logFile;
  private static String consoleAtStart;
  private static List<String> fileAtStart;
  private static String jobId;

  @BeforeAll
  static void runAJobThatStagesFromADatabase() throws Exception {
    databases = H2TcpServer.start(dir.resolve("databases"));
    String dbUrl = databases.jdbcUrl("risk");
    try (Connection c = DriverManager.getConnection(dbUrl, "risk", DB_PASSWORD);
        Statement s = c.createStatement()) {
      s.execute("create table book(id int primary key, name varchar(20))");
      s.execute("insert into book values (1, 'rates')");
    }
    logFile = dir.resolve("logs").resolve("gantry.log");
    Map<String, String> settings = new HashMap<>(databases.inlineStagingSettings());
    settings.put("log.file", logFile.toString());
    settings.put("log.format", "json");
    server =
        GantryTestServer.builder(dir)
            .dataDir(dir.resolve("server"))
            .secure()
            .settings(settings)
            .account(new TestAccount("alice", USER_PASSWORD, false, null))
            .name("operator-log")
            .start();
    consoleAtStart = server.log();
    fileAtStart = Files.readAllLines(logFile);

    JobManagement alice = JobManagementClients.of(server, new Login.Basic("alice", USER_PASSWORD));
    PublicKey key = publicKey(alice.getServerInfo().passwordPublicKey);
    String dbToken =
        EncryptedSecret.encrypt(key, DB_PASSWORD.toCharArray(), SecretBinding.jdbc("alice", dbUrl));
    jobId = alice.submitJob(TestJobs.documentOf(job(dbUrl, "risk", dbToken)));
    assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(alice, jobId, LIMIT).state);
    // a login the database refuses is refused at submission, and logged without the password
    assertThrows(
        InvalidJobFault.class,
        () -> alice.submitJob(TestJobs.documentOf(job(dbUrl, "nobody", dbToken))));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (databases != null) {
      databases.close();
    }
  }

  @Test
  void aCleanStartLogsNoStackTraceAndNoError() throws Exception {
    assertFalse(consoleAtStart.contains("\tat "), consoleAtStart);
    assertFalse(consoleAtStart.contains(" ERROR "), consoleAtStart);
    assertFalse(fileAtStart.isEmpty(), "the server logged its start to the file");
    for (String line : fileAtStart) {
      JsonNode entry = JSON.readTree(line);
      assertTrue(entry.path("throwable").isNull(), "a stack trace at start: " + line);
      assertFalse(entry.path("level").asText().equals("ERROR"), line);
    }
  }

  @Test
  void everyLineIsJsonAndTheJobsLinesCarryItsIdAndUser() throws Exception {
    List<String> lines = Files.readAllLines(logFile);
    List<String> aboutTheJob = new ArrayList<>();
    for (String line : lines) {
      JsonNode entry = JSON.readTree(line);
      assertTrue(entry.isObject() && entry.has("level") && entry.has("timestamp"), line);
      String message = entry.path("formattedMessage").asText();
      JsonNode mdc = entry.path("mdc");
      if (message.contains(jobId)) {
        aboutTheJob.add(message);
        assertEquals(jobId, mdc.path("jobId").asText(), line);
      }
      if (mdc.path("jobId").asText().equals(jobId)) {
        assertEquals("alice", mdc.path("user").asText(), line);
      }
    }
    String all = String.join("\n", aboutTheJob);
    for (String step :
        List.of(
            "submitted by alice", // the SOAP call
            "QUEUED -> STAGING_IN", // the scheduler
            "STAGING_IN -> STAGED", // the stage-in
            "STAGED -> RUNNING", // the launch
            "started pid",
            "RUNNING -> STAGING_OUT", // the program's end
            "STAGING_OUT -> SUCCEEDED")) { // the stage-out
      assertTrue(all.contains(step), "no line '" + step + "' about the job:\n" + all);
    }
  }

  @Test
  void noPasswordAppearsInTheLog() throws Exception {
    String log = Files.readString(logFile) + server.log();
    assertTrue(log.contains(jobId), "the job's lines were read");
    for (String secret : List.of(DB_PASSWORD, USER_PASSWORD)) {
      assertFalse(log.contains(secret), "a password in the log");
    }
  }

  private static String job(String dbUrl, String dbUser, String dbToken) {
    String xml = TestJobs.job("logged").shell("cat books.csv", 30).xml();
    String staging =
        "<gx:PreDataStaging><gx:SQLQueryDataStaging><gx:DataSource><gx:JDBCURL>"
            + dbUrl
            + "</gx:JDBCURL><gx:UserId>"
            + dbUser
            + "</gx:UserId><gx:Password>"
            + dbToken
            + "</gx:Password></gx:DataSource>"
            + "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>"
            + "<gx:SQLStatement>SELECT id, name FROM book</gx:SQLStatement>"
            + "<gx:SQLOutputFileName>books.csv</gx:SQLOutputFileName></gx:SQLQueryDataStaging>"
            + "</gx:PreDataStaging>";
    return xml.replace("</jsdl:JobDescription>", staging + "</jsdl:JobDescription>");
  }

  private static PublicKey publicKey(String pem) throws Exception {
    String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA")
        .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
  }
}
