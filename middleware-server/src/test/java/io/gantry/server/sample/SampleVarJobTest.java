package io.gantry.server.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.demo.DemoMarket;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
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
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl) end to end on a real server: SQL stage-in
 * in two groups with parameter binding, scp from the demo SSH host, mcvar on 2 ranks through the
 * real mpirun, stage-out of the results into the demo database.
 */
class SampleVarJobTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");

  private static final String ADMIN_PASSWORD = "the sample's admin password";
  @TempDir Path dir;
  private Path dataDir;
  private GantryTestServerBuilder builder;
  private GantryTestServer server;
  private JobManagement client;

  @BeforeEach
  void startServer() throws Exception {
    dataDir = dir.resolve("server");
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    // On the defaults, TLS and accounts included: the first administrator's password is configured.
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    builder =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .secure()
            .demo(300)
            .settings(
                Map.ofEntries(
                    Map.entry("admin.password-file", adminPassword.toString()),
                    // mcvar runs inside the job's sandbox, which shows it only from an allowed root
                    // (and, as with bin/gantry-server and scripts/run-sample, the server offers its
                    // built-in
                    // mcvar application found there to the named form, var-job-named.jsdl)
                    Map.entry("jobs.allowed-executable-roots", MCVAR.getParent().toString())));
    start();
  }

  /** Starts the server on this test's data directory (again, after a stop). */
  private void start() throws Exception {
    server = builder.start();
    client = JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  /** The example as shipped, pointed at this test's demo SSH port and the built mcvar. */
  private Element sampleJob() throws Exception {
    String xml =
        Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
            .replace(
                "<gx:RemotePort>2222</gx:RemotePort>",
                "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
            .replace(
                "<gx:Executable>mcvar</gx:Executable>",
                "<gx:Executable>" + MCVAR + "</gx:Executable>");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder()
        .parse(new InputSource(new StringReader(xml)))
        .getDocumentElement();
  }

  @Test
  void theNamedSampleRunsTheServersBuiltInMcvarWithTheFiguresOfTheDescribedSample()
      throws Exception {
    String xml = Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job-named.jsdl"));
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Element job =
        f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
    assertEquals(
        List.of("mcvar 1.0 mpirun 2"),
        client.getServerInfo().applications.stream()
            .filter(a -> a.name.equals("mcvar"))
            .map(a -> a.name + " " + a.version + " " + a.kind + " " + a.processes)
            .toList(),
        "the built-in mcvar, found in the allowed executable roots");
    String named = client.submitJob(new JobDocument(job));
    JobStatusInfo status = awaitEnd(named, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    assertEquals(3, client.getJobResults(named).stagedOut.size());
    String described = client.submitJob(new JobDocument(sampleJob()));
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(described, Duration.ofMinutes(3)).state);
    server
        .close(); // the demo database is a file of the server's, which H2 opens in one process at a
    // time
    try (Connection c =
        DriverManager.getConnection(
            new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "")) {
      assertEquals(
          50000, scalar(c, "select sum(count) from var_pnl_distribution where run_id = ?", named));
      assertEquals(
          summary(c, described),
          summary(c, named),
          "scripts/run-sample prints the README's figures");
    }
  }

  /** The var_summary rows of a run, rounded as scripts/run-sample prints them. */
  private static List<String> summary(Connection c, String jobId) throws Exception {
    List<String> rows = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select confidence, cast(var as decimal(20, 2)),"
                + " cast(expected_shortfall as decimal(20, 2)), scenarios from var_summary where run_id = ? order by confidence")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              rs.getString(1)
                  + " | "
                  + rs.getString(2)
                  + " | "
                  + rs.getString(3)
                  + " | "
                  + rs.getString(4));
        }
      }
    }
    assertEquals(2, rows.size(), rows.toString());
    return rows;
  }

  @Test
  void sampleJobStagesComputesAndWritesItsVarBackIntoSql() throws Exception {
    String jobId = client.submitJob(new JobDocument(sampleJob()));
    JobStatusInfo status = awaitEnd(jobId, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    assertEquals(0, status.exitCode);

    JobResults results = client.getJobResults(jobId);
    assertEquals(6, results.stagedIn.size(), "five SQL extracts and one scp transfer");
    StagedFileInfo positions =
        results.stagedIn.stream()
            .filter(f -> f.target.equals("positions.csv.gz"))
            .findFirst()
            .orElseThrow();
    assertEquals(300, positions.rows);
    assertTrue(positions.checksum.startsWith("sha256:"));
    assertEquals(3, results.stagedOut.size());
    server
        .close(); // the demo database is a file of the server's, which H2 opens in one process at a
    // time

    try (Connection c =
        DriverManager.getConnection(
            new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "")) {
      double var99 =
          scalar(c, "select var from var_summary where run_id = ? and confidence = 0.99", jobId);
      double var95 =
          scalar(c, "select var from var_summary where run_id = ? and confidence = 0.95", jobId);
      assertTrue(var99 > var95 && var95 > 0, "VaR grows with confidence: " + var95 + " " + var99);
      assertEquals(
          50000, scalar(c, "select sum(count) from var_pnl_distribution where run_id = ?", jobId));
      assertEquals(600, scalar(c, "select count(*) from var_contribution where run_id = ?", jobId));
      double contributions =
          scalar(
              c,
              "select sum(contribution) from var_contribution "
                  + "where run_id = ? and confidence = 0.99",
              jobId);
      assertEquals(
          var99, contributions, Math.abs(var99) * 0.05, "Euler contributions add up to VaR");
    }
  }

  @Test
  void anIntradayReRunAfterALevelMoveQueriesOnlyTheLevels() throws Exception {
    String first = client.submitJob(new JobDocument(sampleJob()));
    assertEquals(JobStateName.SUCCEEDED, awaitEnd(first, Duration.ofMinutes(3)).state);
    Map<String, StagedFileInfo> before = byTarget(client.getJobResults(first).stagedIn);
    server
        .close(); // the demo database is a file of the server's, which H2 opens in one process at a
    // time
    try (Connection c =
            DriverManager.getConnection(
                new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "");
        java.sql.Statement s = c.createStatement()) {
      s.execute("update risk_factor set level = cast(level * 1.01 as decimal(20, 10))"); // what
      // scripts/move-demo-levels does
    }
    start(); // the cache lives under the data directory's staging root and outlives the server
    String second = client.submitJob(new JobDocument(sampleJob()));
    JobStatusInfo status = awaitEnd(second, Duration.ofMinutes(3));
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);

    Map<String, StagedFileInfo> after = byTarget(client.getJobResults(second).stagedIn);
    for (String cached :
        List.of("positions.csv.gz", "params.csv.gz", "factor-ids.csv", "history.csv.gz")) {
      assertTrue(
          after.get(cached).step.startsWith("sql-extract-cached["),
          cached + ": " + after.get(cached).step);
      assertEquals(before.get(cached).checksum, after.get(cached).checksum, cached);
    }
    assertTrue(
        after.get("factors.csv.gz").step.startsWith("sql-extract["),
        after.get("factors.csv.gz").step);
    assertTrue(
        !before.get("factors.csv.gz").checksum.equals(after.get("factors.csv.gz").checksum),
        "the levels moved, so their extract differs");
  }

  private static Map<String, StagedFileInfo> byTarget(List<StagedFileInfo> files) {
    Map<String, StagedFileInfo> m = new java.util.HashMap<>();
    files.forEach(f -> m.put(f.target, f));
    return m;
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
