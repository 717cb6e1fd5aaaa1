package io.gantry.server.sample;

import io.gantry.server.soap.TestJobs;

import io.gantry.testing.server.GantryTestServer;
import io.gantry.server.soap.JobManagementClients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.demo.DemoMarket;
import io.gantry.server.soap.Login;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl) end to end on a real server: SQL
 * stage-in in two groups with parameter binding, scp from the demo SSH host, mcvar on 2 ranks
 * through the real mpirun, stage-out of the results into the demo database.
 */
class SampleVarJobTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");

  private static final String ADMIN_PASSWORD = "the sample's admin password";
  private static final List<String> NAMED_MCVAR_ARGUMENTS = List.of("--factors", "factors.csv.gz", "--history",
      "history.csv.gz", "--positions", "positions.csv.gz", "--params", "params.csv.gz", "--out-dir", "results",
      "--compress-output");

  @TempDir Path dir;
  private Path dataDir;
  private GantryTestServer server;
  private JobManagement client;

  @BeforeEach
  void startServer() throws Exception {
    dataDir = dir.resolve("server");
    assertTrue(Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    // On the defaults, TLS and accounts included: the first administrator's password is configured.
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    server = GantryTestServer.builder(dir).dataDir(dataDir).secure().demo(300).settings(Map.ofEntries(
        Map.entry("admin.password-file", adminPassword.toString()),
        // mcvar runs inside the job's sandbox, which shows it only from an allowed root
        Map.entry("jobs.allowed-executable-roots", MCVAR.getParent().toString()),
        // the named form of the sample (var-job-named.jsdl) runs the server's mcvar application
        Map.entry("application.mcvar.executable", MCVAR.toString()), Map.entry("application.mcvar.kind", "mpirun"),
        Map.entry("application.mcvar.version", "1.0"), Map.entry("application.mcvar.processes", "2"),
        Map.entry("application.mcvar.arguments", String.join(" ", NAMED_MCVAR_ARGUMENTS)))).start();
    client = JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  /** The example as shipped, pointed at this test's demo SSH port and the built mcvar. */
  private Element sampleJob() throws Exception {
    String xml = Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
        .replace("<gx:RemotePort>2222</gx:RemotePort>",
            "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
        .replace("<gx:Executable>mcvar</gx:Executable>", "<gx:Executable>" + MCVAR + "</gx:Executable>");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
  }

  @Test
  void theNamedSampleRunsTheServersMcvarApplication() throws Exception {
    String xml = Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job-named.jsdl"));
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Element job = f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
    String jobId = client.submitJob(new JobDocument(job));
    JobStatusInfo status = awaitEnd(jobId, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    assertEquals(3, client.getJobResults(jobId).stagedOut.size());
    server.close(); // the demo database is a file of the server's, which H2 opens in one process at a time
    try (Connection c = DriverManager.getConnection(
        new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "")) {
      assertEquals(50000, scalar(c, "select sum(count) from var_pnl_distribution where run_id = ?", jobId));
    }
  }

  @Test
  void sampleJobStagesComputesAndWritesItsVarBackIntoSql() throws Exception {
    String jobId = client.submitJob(new JobDocument(sampleJob()));
    JobStatusInfo status = awaitEnd(jobId, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    assertEquals(0, status.exitCode);

    JobResults results = client.getJobResults(jobId);
    assertEquals(6, results.stagedIn.size(), "five SQL extracts and one scp transfer");
    StagedFileInfo positions = results.stagedIn.stream()
        .filter(f -> f.target.equals("positions.csv.gz")).findFirst().orElseThrow();
    assertEquals(300, positions.rows);
    assertTrue(positions.checksum.startsWith("sha256:"));
    assertEquals(3, results.stagedOut.size());

    server.close(); // the demo database is a file of the server's, which H2 opens in one process at a time
    try (Connection c = DriverManager.getConnection(
        new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "")) {
      double var99 = scalar(c, "select var from var_summary where run_id = ? and confidence = 0.99", jobId);
      double var95 = scalar(c, "select var from var_summary where run_id = ? and confidence = 0.95", jobId);
      assertTrue(var99 > var95 && var95 > 0, "VaR grows with confidence: " + var95 + " " + var99);
      assertEquals(50000, scalar(c, "select sum(count) from var_pnl_distribution where run_id = ?", jobId));
      assertEquals(600, scalar(c, "select count(*) from var_contribution where run_id = ?", jobId));
      double contributions = scalar(c, "select sum(contribution) from var_contribution "
          + "where run_id = ? and confidence = 0.99", jobId);
      assertEquals(var99, contributions, Math.abs(var99) * 0.05, "Euler contributions add up to VaR");
    }
  }

  private JobStatusInfo awaitEnd(String jobId, Duration timeout) {
    return TestJobs.awaitFinal(client, jobId, timeout);
  }

  private static double scalar(Connection c, String sql, String jobId) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), sql);
        return rs.getDouble(1);
      }
    }
  }
}
