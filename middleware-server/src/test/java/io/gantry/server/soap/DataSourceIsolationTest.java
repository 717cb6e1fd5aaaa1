package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user tried against a default server to leave their lane through staging, each refused by
 * validateJob with the reason and the element's line:column, and nothing queued: the demo's
 * admin-only functions, a second statement, an inline data source with an H2 INIT script, an scp to
 * a loopback port the operator did not list.
 */
class DataSourceIsolationTest {
  @TempDir static Path dir;
  static GantryTestServerBuilder builder;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    // a loopback target must be listed to be reached; the demo adds its own SSH host itself
    builder = GantryTestServer.builder(dir).demo(20).setting("staging.allowed-hosts", "192.0.2.1");
    startServer();
  }

  static void startServer() throws Exception {
    server = builder.start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String withStageIn(String staging) {
    String xml = TestJobs.job("attack").posix(30, "/bin/true").xml();
    return xml.replace(
        "</jsdl:JobDescription>",
        "<gx:PreDataStaging>" + staging + "</gx:PreDataStaging></jsdl:JobDescription>");
  }

  private static String query(String dataSource, String sql) {
    return "<gx:SQLQueryDataStaging>"
        + dataSource
        + "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>"
        + "\n<gx:SQLStatement>"
        + sql.replace("&", "&amp;").replace("<", "&lt;")
        + "</gx:SQLStatement>"
        + "<gx:SQLOutputFileName>out.csv</gx:SQLOutputFileName></gx:SQLQueryDataStaging>";
  }

  /** The one error of {@code xml}, checked to be located; nothing may be queued by it. */
  private static Problem refused(String xml) throws Exception {
    long before = client.listJobs(null, 0, 1, false).total;
    ValidationResult result = client.validateJob(TestJobs.documentOf(xml));
    assertFalse(result.valid, "accepted: " + xml);
    List<Problem> errors =
        result.problems.stream().filter(p -> p.severity.equals("ERROR")).toList();
    assertEquals(1, errors.size(), errors.stream().map(p -> p.message).toList().toString());
    Problem p = errors.get(0);
    assertTrue(p.line > 0 && p.column > 0, "located: " + p.path + " " + p.message);
    assertEquals(before, client.listJobs(null, 0, 1, false).total, "nothing queued");
    return p;
  }

  @Test
  void theDemoKeystorePasswordCannotBeReadThroughFileRead() throws Exception {
    Problem p =
        refused(
            withStageIn(
                query(
                    "<gx:DataSourceRef>demo-market</gx:DataSourceRef>",
                    "SELECT UTF8TOSTRING(FILE_READ('"
                        + server.dataDir().resolve("tls/keystore.password")
                        + "'))")));
    assertTrue(p.path.endsWith("SQLStatement"), p.path);
    assertTrue(
        p.message.contains("calls FILE_READ, which reads files on the database server"), p.message);
  }

  @Test
  void aSecondStatementDropsNoResultsTable() throws Exception {
    Problem p =
        refused(
            withStageIn(
                query(
                    "<gx:DataSourceRef>demo-market</gx:DataSourceRef>",
                    "SELECT 1; DROP TABLE var_summary")));
    assertTrue(p.message.contains("holds 2 statements"), p.message);
    // the demo database is a file of the server's (H2 opens it in one process): looked at with
    // the server stopped, as a DBA would; the same data directory serves the next tests
    server.close();
    try (Connection c =
            DriverManager.getConnection(
                new DemoMarket(server.dataDir().resolve("demo"), 20).jdbcUrl(), "sa", "");
        ResultSet rs = c.getMetaData().getTables(null, null, "var_summary", null)) {
      assertTrue(rs.next(), "var_summary is still there");
    } finally {
      startServer();
    }
  }

  @Test
  void anInlineDataSourceWithAnInitScriptIsRefusedWhileInlineSourcesAreOff() throws Exception {
    String marker = dir.resolve("pwned").toString();
    String url =
        "jdbc:h2:mem:x;INIT=CREATE ALIAS P AS 'void p() throws Exception { java.nio.file.Files.writeString("
            + "java.nio.file.Path.of(\""
            + marker
            + "\"), \"x\")\\; }'\\;CALL P()";
    Problem p =
        refused(
            withStageIn(
                query(
                    "<gx:DataSource>\n<gx:JDBCURL>"
                        + url.replace("&", "&amp;")
                        + "</gx:JDBCURL><gx:UserId>sa</gx:UserId><gx:Password>"
                        + TestJobs.syntacticallyValidEncryptedPassword("local")
                        + "</gx:Password></gx:DataSource>",
                    "SELECT 1")));
    assertTrue(p.path.endsWith("DataSource/JDBCURL"), p.path);
    assertTrue(p.message.contains("staging.inline-data-sources=false"), p.message);
    assertTrue(Files.notExists(Path.of(marker)));
  }

  @Test
  void scpToALoopbackPortTheOperatorDidNotListIsRefused() throws Exception {
    Problem p =
        refused(
            withStageIn(
                "<gx:SCPDataStaging><gx:ArrangingOrder>1</gx:ArrangingOrder>"
                    + "<gx:Direction>transmit</gx:Direction>\n<gx:RemoteHostName>127.0.0.1</gx:RemoteHostName>"
                    + "<gx:RemotePort>5432</gx:RemotePort><gx:RemoteUserId>postgres</gx:RemoteUserId>"
                    + "<gx:IdentityRef>demo-remote</gx:IdentityRef><gx:SourceFileName>/etc/passwd</gx:SourceFileName>"
                    + "<gx:TargetFileName>p.txt</gx:TargetFileName></gx:SCPDataStaging>"));
    assertTrue(p.path.endsWith("RemoteHostName"), p.path);
    assertTrue(p.message.contains("staging may not connect to 127.0.0.1:5432"), p.message);
  }

  @Test
  void theDemoSshHostIsAllowedWhileTheDemoRuns() throws Exception {
    String sample =
        Files.readString(Path.of("..", "jsdl-schema", "examples", "var-job.jsdl"))
            .replace(
                "<gx:RemotePort>2222</gx:RemotePort>",
                "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>");
    ValidationResult result = client.validateJob(TestJobs.documentOf(sample));
    assertTrue(result.valid, result.problems.stream().map(p -> p.message).toList().toString());
  }
}
