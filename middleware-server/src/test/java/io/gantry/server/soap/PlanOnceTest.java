package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.testing.H2TcpServer;
import io.gantry.testing.server.GantryTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's files are decided once, at submission, and stored with the job: reading an old job's
 * output does not depend on today's configuration, and does not parse its description again. The
 * jobs the tests read run once, on one server, before the tests; each test then starts the server
 * it needs on the same data directory (one at a time: H2 lets one process in).
 */
class PlanOnceTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  @TempDir static Path dir;
  private static RiskDatabase risk;

  /**
   * Valuation jobs that ran to their end, one for each test whose changes to its job are its own.
   */
  private static String readJob;

  private static String reparsedJob;
  private static String oldJob;

  /** A job whose SQL and scp stage-ins carry encrypted passwords, and those values. */
  private static final String DB_PASSWORD = "db-pässword-7";

  private static String secretsJob;
  private static String sqlValue;
  private static String scpValue;

  private static Path dataDir() {
    return dir.resolve("server");
  }

  /** A server on the same data directory (job store, job directories) with {@code settings}. */
  private static GantryTestServer start(Map<String, String> settings) throws Exception {
    return GantryTestServer.builder(dir).dataDir(dataDir()).settings(settings).start();
  }

  /**
   * Runs the valuation job (stage-in from the risk data source, stdout "valued 25 positions") to
   * its end, three times, and the job with secrets, on one server.
   */
  @BeforeAll
  static void jobsRun() throws Exception {
    risk = RiskDatabase.h2File(dir.resolve("db"));
    try (H2TcpServer databases = H2TcpServer.start(dir.resolve("databases"))) {
      String dbUrl = databases.jdbcUrl("books");
      DriverManager.getConnection(dbUrl, "risk", DB_PASSWORD).close();
      Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
      settings.putAll(databases.inlineStagingSettings());
      try (GantryTestServer server = start(settings)) {
        JobManagement client = JobManagementClients.of(server);
        readJob = client.submitJob(RiskDatabase.valuationJob("plan-once").document());
        reparsedJob = client.submitJob(RiskDatabase.valuationJob("plan-once").document());
        oldJob = client.submitJob(RiskDatabase.valuationJob("plan-once").document());
        secretsJob = submitSecretsJob(client, dbUrl);
        for (String id : new String[] {readJob, reparsedJob, oldJob}) {
          assertEquals(JobStateName.SUCCEEDED, TestJobs.awaitFinal(client, id, LIMIT).state);
          assertEquals("valued 25 positions\n", stdout(client, id));
        }
        TestJobs.awaitFinal(client, secretsJob, LIMIT);
      }
    }
  }

  /**
   * A job with an SQL stage-in from an inline data source and an scp stage-in, each with an
   * encrypted password ({@link #sqlValue}, {@link #scpValue}).
   */
  private static String submitSecretsJob(JobManagement client, String dbUrl) throws Exception {
    java.security.PublicKey key =
        EncryptedSecret.publicKeyFromPem(client.getServerInfo().passwordPublicKey);
    sqlValue =
        EncryptedSecret.encrypt(key, DB_PASSWORD.toCharArray(), SecretBinding.jdbc("local", dbUrl));
    scpValue =
        EncryptedSecret.encrypt(
            key,
            "ssh-secret".toCharArray(),
            SecretBinding.of("local", TestJobs.SCP_PASSWORD_DESTINATION));
    String xml =
        TestJobs.job("secrets")
            .posix(30, "/bin/true")
            .scpStageInWithPassword(scpValue)
            .xml()
            .replace(
                "</gx:PreDataStaging>",
                "<gx:SQLQueryDataStaging><gx:DataSource><gx:JDBCURL>"
                    + dbUrl
                    + "</gx:JDBCURL><gx:UserId>risk</gx:UserId><gx:Password>"
                    + sqlValue
                    + "</gx:Password>"
                    + "</gx:DataSource><gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>"
                    + "<gx:SQLStatement>SELECT 1 AS one</gx:SQLStatement>"
                    + "<gx:SQLOutputFileName>one.csv</gx:SQLOutputFileName></gx:SQLQueryDataStaging></gx:PreDataStaging>");
    return client.submitJob(TestJobs.documentOf(xml));
  }

  private static String stdout(JobManagement client, String id) throws Exception {
    OutputChunk chunk = client.getJobOutput(id, OutputStreamName.STDOUT, 0, 4096);
    return chunk.data == null ? "" : new String(chunk.data, StandardCharsets.UTF_8);
  }

  private static Connection jobStore() throws SQLException {
    // the server's default job store: an H2 file in its data directory (H2 lets one user in
    // whichever server is stopped between the reads and writes of these tests)
    JobStoreSettings store =
        JobStoreSettings.h2File(dataDir().resolve("jobstore").resolve("gantry"));
    return DriverManager.getConnection(store.jdbcUrl(), store.user(), store.password());
  }

  @Test
  void aJobsOutputStaysReadableAfterItsDataSourceIsRemovedOrRenamed() throws Exception {
    String id = readJob;
    try (GantryTestServer server = start(Map.of())) {
      assertEquals(
          "valued 25 positions\n",
          stdout(JobManagementClients.of(server), id),
          "data source removed");
    }
    Map<String, String> renamed = new HashMap<>();
    risk.dataSourceSettings()
        .forEach((k, v) -> renamed.put(k.replace("datasource.risk.", "datasource.market."), v));
    try (GantryTestServer server = start(renamed)) {
      assertEquals(
          "valued 25 positions\n",
          stdout(JobManagementClients.of(server), id),
          "data source renamed");
    }
  }

  @Test
  void aJobsOutputStaysReadableAfterItsOwnerLosesAccessToItsDataSource() throws Exception {
    String id = readJob;
    Map<String, String> onlyBob = new HashMap<>(risk.dataSourceSettings());
    onlyBob.put("datasource.risk.users", "bob");
    try (GantryTestServer server = start(onlyBob)) {
      JobManagement client = JobManagementClients.of(server);
      // the owner (the local user) may no longer submit this job ...
      assertFalse(client.validateJob(RiskDatabase.valuationJob("again").document()).valid);
      // ... and still reads what it wrote
      assertEquals("valued 25 positions\n", stdout(client, id));
    }
  }

  @Test
  void readsAnswerFromTheStoredPlanWithoutParsingTheDescriptionAgain() throws Exception {
    String id = reparsedJob;
    try (Connection c = jobStore();
        PreparedStatement ps =
            c.prepareStatement("UPDATE gantry_job SET jsdl_xml = ? WHERE id = ?")) {
      ps.setString(1, "<not-a-job-description/>"); // any re-parse would find no plan in this
      ps.setString(2, id);
      assertEquals(1, ps.executeUpdate());
    }
    try (GantryTestServer server = start(Map.of())) {
      assertEquals("valued 25 positions\n", stdout(JobManagementClients.of(server), id));
    }
  }

  @Test
  void aJobStoredBeforePlansWereKeptIsPlannedOnceOnItsFirstReadAndKeepsThatPlan() throws Exception {
    String id = oldJob;
    try (Connection c = jobStore();
        Statement s = c.createStatement()) {
      // as a job stored by a server before job store version 9
      s.executeUpdate("DELETE FROM gantry_job_plan_step WHERE job_id = '" + id + "'");
      s.executeUpdate("DELETE FROM gantry_job_plan WHERE job_id = '" + id + "'");
    }
    try (GantryTestServer server = start(Map.of())) { // and its data source is gone too
      assertEquals("valued 25 positions\n", stdout(JobManagementClients.of(server), id));
    }
    try (Connection c = jobStore();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT job_directory, stdout_file FROM gantry_job_plan WHERE job_id = '"
                    + id
                    + "'")) {
      assertTrue(rs.next(), "the plan made on the first read is stored");
      assertEquals(dataDir().resolve("jobs").resolve(id).toString(), rs.getString(1));
      assertEquals("stdout.txt", rs.getString(2));
    }
  }

  @Test
  void theStoredPlanHoldsNoSecretNorEncryptedValue() throws Exception {
    String id = secretsJob;
    StringBuilder stored = new StringBuilder();
    int steps = 0;
    try (Connection c = jobStore();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT p.job_directory, p.stdout_file, p.stderr_file, t.kind, t.source,"
                    + " t.detail, t.file FROM gantry_job_plan p JOIN gantry_job_plan_step t ON t.job_id = p.job_id"
                    + " WHERE p.job_id = '"
                    + id
                    + "'")) {
      while (rs.next()) {
        steps++;
        for (int i = 1; i <= 7; i++) {
          stored.append(rs.getString(i)).append('|');
        }
        stored.append('\n');
      }
    }
    assertEquals(2, steps, stored.toString());
    assertTrue(
        stored.toString().contains("risk@127.0.0.1:9"),
        "the scp step names its destination: " + stored);
    assertTrue(stored.toString().contains("sql-extract"), stored.toString());
    for (String secret :
        new String[] {
          "ENC(",
          sqlValue,
          scpValue,
          DB_PASSWORD,
          "ssh-secret",
          java.util.Base64.getEncoder().encodeToString(EncryptedSecret.parse(sqlValue).ciphertext())
        }) {
      assertFalse(
          stored.toString().contains(secret), "the stored plan holds " + secret + ": " + stored);
    }
  }
}
