package io.gantry.server.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL checks refuse what leaves the lane, not ordinary work: the sample job's stage-in
 * statements (with its template's business date and node bound), a WITH query and bound ?
 * parameters, against a real PostgreSQL loaded with the demo's schema, pass validation and stage in
 * (in read-only transactions).
 */
class PostgresStageInTest {
  @TempDir Path dir;

  @Test
  void theSampleStatementsAWithQueryAndBoundParametersStageInFromPostgres() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    String db = postgres.createDatabase();
    try (Connection c = postgres.connect(db);
        Statement s = c.createStatement();
        InputStream schema =
            io.gantry.server.internal.demo.DemoMarket.class.getResourceAsStream(
                "market-schema.sql")) {
      for (String sql :
          new String(schema.readAllBytes(), StandardCharsets.UTF_8)
              .replaceAll("(?m)^--.*$", "")
              .split(";")) {
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
      s.execute(
          "insert into hierarchy_node values ('BANK', null, 'BANK', 'bank', 'the bank'),"
              + " ('BANK/DESK-1', 'BANK', 'DESK-1', 'desk', 'a desk')");
      s.execute(
          "insert into node_ancestor values ('BANK', 'BANK'), ('BANK', 'BANK/DESK-1'),"
              + " ('BANK/DESK-1', 'BANK/DESK-1')");
      s.execute(
          "insert into risk_factor values"
              + " ('EQ001', 'equity', 'USD', null, 'log', null, null, null, 'a stock'),"
              + " ('IR-USD-1Y', 'rate', 'USD', null, 'absolute', null, 'USD', 1, 'a rate')");
      s.execute(
          "insert into factor_history values (date '2026-11-19', 'EQ001', 99), (date '2026-11-20', 'EQ001', 100),"
              + " (date '2026-11-19', 'IR-USD-1Y', 0.039), (date '2026-11-20', 'IR-USD-1Y', 0.04)");
      s.execute("insert into portfolio values ('DESK-1', 'desk', 'BANK/DESK-1', 'USD')");
      s.execute(
          "insert into position values (date '2026-11-20', 'P1', 'DESK-1', 'call', 'EQ001',"
              + " 'IR-USD-1Y', null, null, null, 'USD', 10, 95, 0.5, 0.2)");
      s.execute("insert into var_run_parameter values ('daily', 'scenarios', '1000')");
    }
    String sample =
        Files.readString(
            Path.of("").toAbsolutePath().getParent().resolve("jsdl-schema/examples/var-job.jsdl"));
    String parameters =
        sample.substring(
            sample.indexOf("<gx:Parameters>"),
            sample.indexOf("</gx:Parameters>") + "</gx:Parameters>".length());
    String stageIn =
        sample
            .substring(
                sample.indexOf("<gx:SQLQueryDataStaging>"),
                sample.lastIndexOf("</gx:PreDataStaging>"))
            .replace("demo-market", "market");
    String withQuery =
        "<gx:SQLQueryDataStaging><gx:DataSourceRef>market</gx:DataSourceRef>"
            + "<gx:ExecutionOrderGroup>2</gx:ExecutionOrderGroup><gx:SQLStatement>"
            + "WITH latest AS (SELECT factor_id, MAX(as_of) AS as_of FROM factor_history WHERE factor_id = ? GROUP BY factor_id)"
            + " SELECT h.factor_id, h.level FROM factor_history h JOIN latest l ON l.factor_id = h.factor_id AND l.as_of = h.as_of"
            + "</gx:SQLStatement><gx:SQLOutputFileName>latest.csv</gx:SQLOutputFileName>"
            + "<gx:SQLInputFileName>factor-ids.csv</gx:SQLInputFileName></gx:SQLQueryDataStaging>";
    String xml =
        TestJobs.job("pg-sample")
            .posix(60, "/bin/true")
            .xml()
            .replace(
                "</jsdl:JobDescription>",
                parameters
                    + "<gx:PreDataStaging>"
                    + stageIn
                    + withQuery
                    + "</gx:PreDataStaging></jsdl:JobDescription>");
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .settings(
                Map.of(
                    "datasource.market.url",
                    postgres.jdbcUrl(db),
                    "datasource.market.user",
                    postgres.user()))
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      var validation = client.validateJob(TestJobs.documentOf(xml));
      assertTrue(
          validation.valid, validation.problems.stream().map(p -> p.message).toList().toString());
      String id = client.submitJob(TestJobs.documentOf(xml));
      JobStatusInfo status = TestJobs.awaitFinal(client, id, Duration.ofSeconds(60));
      assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
      Path job = server.jobDirectory(id);
      assertEquals(
          "factor_id,level\nEQ001,100.0000000000\nIR-USD-1Y,0.0400000000\n",
          sorted(Files.readString(job.resolve("latest.csv"))));
      assertTrue(Files.readString(job.resolve("factor-ids.csv")).contains("IR-USD-1Y"));
      assertTrue(Files.size(job.resolve("history.csv.gz")) > 0);
      assertTrue(Files.size(job.resolve("positions.csv.gz")) > 0);
      assertTrue(Files.size(job.resolve("factors.csv.gz")) > 0);
    }
  }

  private static String sorted(String csv) {
    String[] lines = csv.split("\n");
    java.util.Arrays.sort(lines, 1, lines.length);
    return String.join("\n", lines) + "\n";
  }
}
