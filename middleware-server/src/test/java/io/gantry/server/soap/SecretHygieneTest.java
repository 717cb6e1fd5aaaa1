package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.testing.Await;
import io.gantry.testing.H2TcpServer;
import io.gantry.testing.SshTestHost;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.WebServiceException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole jobs carrying known secrets (a database password and an SSH password, encrypted in the job
 * description, and the user's own password) leave none of them anywhere they could be read: not in
 * the server's log, its data directory (job store, job directories, the job's stdout and stderr),
 * any API answer, any failure message, nor any process's command line or the job's environment
 * while it runs.
 */
class SecretHygieneTest {
  private static final String DB_PASSWORD = "Db-Secret-7f3a9c11";
  private static final String SSH_PASSWORD = "Ssh-Secret-1b8e2d22";
  private static final String USER_PASSWORD = "User-Secret-5c4f0a33";
  private static final String WRONG_PASSWORD = "User-Secret-wrong-9d0e44";
  private static final List<String> SECRETS =
      List.of(DB_PASSWORD, SSH_PASSWORD, USER_PASSWORD, WRONG_PASSWORD);
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void noSecretAppearsInLogsFilesAnswersMessagesOrCommandLines() throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream savedErr = System.err;
    PrintStream savedOut = System.out;
    System.setErr(new PrintStream(new Tee(savedErr, log), true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(new Tee(savedOut, log), true, StandardCharsets.UTF_8));
    List<String> seen = new ArrayList<>();
    // the server runs in a process of its own: its log is read from there
    GantryTestServer started = null;
    try (SshTestHost remote = SshTestHost.start(dir.resolve("remote"));
        H2TcpServer databases = H2TcpServer.start(dir.resolve("databases"))) {
      remote.addUser("risk", SSH_PASSWORD);
      Files.createDirectories(remote.root().resolve("data"));
      Files.writeString(remote.root().resolve("data/prices.csv"), "id,price\n1,100.5\n");
      String dbUrl = databases.jdbcUrl("risk");
      try (Connection c = DriverManager.getConnection(dbUrl, "risk", DB_PASSWORD);
          Statement s = c.createStatement()) {
        s.execute("create table book(id int primary key, name varchar(20))");
        s.execute("insert into book values (1, 'rates')");
      }
      Path knownHosts = dir.resolve("known_hosts");
      Files.writeString(knownHosts, remote.knownHostsLine() + "\n");

      Map<String, String> settings = new java.util.HashMap<>();
      settings.putAll(databases.inlineStagingSettings());
      settings.put("ssh.known-hosts", knownHosts.toString());
      try (GantryTestServer server =
          GantryTestServer.builder(dir)
              .dataDir(dir.resolve("server"))
              .secure()
              .settings(settings)
              .account(new TestAccount("alice", USER_PASSWORD, false, null))
              .start()) {
        started = server;
        JobManagement alice =
            JobManagementClients.of(server, new Login.Basic("alice", USER_PASSWORD));
        JobManagement intruder =
            JobManagementClients.of(server, new Login.Basic("alice", WRONG_PASSWORD));
        assertThrows(WebServiceException.class, () -> intruder.listJobs(List.of(), 0, 1, false));

        PublicKey key = publicKey(alice.getServerInfo().passwordPublicKey);
        String dbToken =
            EncryptedSecret.encrypt(
                key, DB_PASSWORD.toCharArray(), SecretBinding.jdbc("alice", dbUrl));
        String sshToken =
            EncryptedSecret.encrypt(
                key,
                SSH_PASSWORD.toCharArray(),
                SecretBinding.ssh("alice", "risk", "127.0.0.1", remote.port()));

        // The job prints its whole environment and, while it sleeps, the test reads every command
        // line.
        String good =
            alice.submitJob(
                TestJobs.documentOf(
                    job(
                        "good",
                        dbUrl,
                        "risk",
                        dbToken,
                        remote.port(),
                        sshToken,
                        "env; echo; cat prices.csv books.csv; sleep 3")));
        JobStatusInfo running =
            TestJobs.await(
                alice,
                good,
                LIMIT,
                s -> s.state == JobStateName.RUNNING || TestJobs.isFinal(s.state),
                "RUNNING");
        assertEquals(JobStateName.RUNNING, running.state, running.failureReason);
        seen.add(commandLinesOfEveryProcess());
        assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(alice, good, LIMIT).state);

        // A job whose database login is refused is refused at submission (checks before the
        // computation): the problem names the database, not the password.
        io.gantry.server.api.InvalidJobFault refused =
            assertThrows(
                io.gantry.server.api.InvalidJobFault.class,
                () ->
                    alice.submitJob(
                        TestJobs.documentOf(
                            job(
                                "refused",
                                dbUrl,
                                "nobody",
                                dbToken,
                                remote.port(),
                                sshToken,
                                "true"))));
        String problems =
            refused.getMessage()
                + refused.getFaultInfo().problems.stream()
                    .map(p -> p.path + ": " + p.message)
                    .collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(problems.contains("refused the login of user nobody"), problems);
        seen.add(answers(alice, good));
        seen.add(problems);
        assertTrue(seen.get(1).contains("id,price"), "the good job's output was read back");
      }
    } finally {
      System.setErr(savedErr);
      System.setOut(savedOut);
    }
    seen.add(log.toString(StandardCharsets.UTF_8) + started.log());
    seen.add(allFilesUnder(dir.resolve("server")));
    assertTrue(
        seen.get(seen.size() - 2).contains("alice"), "the log was captured (failed login named)");
    for (String secret : SECRETS) {
      for (String place : seen) {
        assertFalse(place.contains(secret), () -> "secret found: " + excerpt(place, secret));
      }
    }
  }

  private static String job(
      String name,
      String dbUrl,
      String dbUser,
      String dbToken,
      int sshPort,
      String sshToken,
      String script) {
    String xml = TestJobs.job(name).shell(script, 30).xml();
    String staging =
        "<gx:PreDataStaging>"
            + "<gx:SCPDataStaging><gx:ArrangingOrder>1</gx:ArrangingOrder><gx:Direction>transmit</gx:Direction>"
            + "<gx:Protocol>sftp</gx:Protocol><gx:RemoteHostName>127.0.0.1</gx:RemoteHostName>"
            + "<gx:RemotePort>"
            + sshPort
            + "</gx:RemotePort><gx:RemoteUserId>risk</gx:RemoteUserId>"
            + "<gx:RemotePassword>"
            + sshToken
            + "</gx:RemotePassword>"
            + "<gx:SourceFileName>/data/prices.csv</gx:SourceFileName><gx:TargetFileName>prices.csv</gx:TargetFileName>"
            + "</gx:SCPDataStaging>"
            + "<gx:SQLQueryDataStaging><gx:DataSource><gx:JDBCURL>"
            + dbUrl
            + "</gx:JDBCURL>"
            + "<gx:UserId>"
            + dbUser
            + "</gx:UserId><gx:Password>"
            + dbToken
            + "</gx:Password></gx:DataSource>"
            + "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup><gx:SQLStatement>SELECT id, name FROM book</gx:SQLStatement>"
            + "<gx:SQLOutputFileName>books.csv</gx:SQLOutputFileName></gx:SQLQueryDataStaging>"
            + "</gx:PreDataStaging>";
    return xml.replace("</jsdl:JobDescription>", staging + "</jsdl:JobDescription>");
  }

  /** Everything the API tells the job's owner about it. */
  private static String answers(JobManagement client, String id) throws Exception {
    StringBuilder all = new StringBuilder();
    JobStatusInfo s = client.getJobStatus(id);
    all.append(s.state)
        .append(' ')
        .append(s.phase)
        .append(' ')
        .append(s.failureReason)
        .append('\n');
    for (StagedFileInfo f : client.getJobResults(id).stagedIn) {
      all.append(f.source).append(' ').append(f.target).append('\n');
    }
    for (AuditEntry e : client.getJobAudit(id).entries) {
      all.append(e.text).append('\n');
    }
    StringWriter definition = new StringWriter();
    TransformerFactory.newInstance()
        .newTransformer()
        .transform(
            new DOMSource(client.getJobDefinition(id).getJobDefinition()),
            new StreamResult(definition));
    all.append(definition).append('\n');
    for (OutputStreamName stream : OutputStreamName.values()) {
      all.append(
          new String(client.getJobOutput(id, stream, 0, 1 << 20).data, StandardCharsets.UTF_8));
    }
    all.append(
        client.validateJob(client.getJobDefinition(id)).problems.stream()
            .map(p -> p.message)
            .toList());
    return all.toString();
  }

  /**
   * The command line of every process this user can see, while the job runs. RUNNING is stored
   * before the job's sandbox starts (every transition is durable before it is acted on), so the
   * job's processes appear a moment later: every snapshot until they are seen is kept.
   */
  private static String commandLinesOfEveryProcess() {
    StringBuilder all = new StringBuilder();
    Await.until(
        "the job's own processes to be seen",
        Duration.ofSeconds(20),
        () -> {
          String snapshot = commandLinesNow();
          all.append(snapshot);
          return snapshot.contains("sleep 3");
        });
    return all.toString();
  }

  private static String commandLinesNow() throws java.io.IOException {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          all.append(
                  new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8)
                      .replace('\0', ' '))
              .append('\n');
        } catch (java.io.IOException gone) {
          // the process ended meanwhile
        }
      }
    }
    return all.toString();
  }

  private static String allFilesUnder(Path root) throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        // ISO-8859-1 keeps every byte, so an ASCII secret is found wherever it lies in binary files
        all.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).append('\n');
      }
    }
    return all.toString();
  }

  private static PublicKey publicKey(String pem) throws Exception {
    String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA")
        .generatePublic(new X509EncodedKeySpec(java.util.Base64.getDecoder().decode(body)));
  }

  private static String excerpt(String place, String secret) {
    int i = place.indexOf(secret);
    return place.substring(
        Math.max(0, i - 200), Math.min(place.length(), i + secret.length() + 50));
  }

  /** Writes to the original stream and keeps a copy. */
  private static final class Tee extends java.io.OutputStream {
    private final java.io.OutputStream a;
    private final java.io.OutputStream b;

    Tee(java.io.OutputStream a, java.io.OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int c) throws java.io.IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public synchronized void write(byte[] bytes, int off, int len) throws java.io.IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }
  }
}
