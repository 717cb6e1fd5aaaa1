package io.gantry.server.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.HardenedXml;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.ParameterValue;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job templates against a real server and the demo market database: values given with submitJob
 * fill the template, SQL binds them as JDBC parameters (an injection attempt stays data), the job
 * keeps them (status, definition), and resubmitJob runs the stored template again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobTemplatesOverHttpTest {
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(2);
  private static final int POSITIONS = 300;

  /** A staging-only template: the positions of one portfolio, and a row of results written back. */
  static final String TEMPLATE =
      """
      <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                          xmlns:gx="urn:gantry:jsdl:ext:1">
        <jsdl:JobDescription>
          <jsdl:JobIdentification><jsdl:JobName>positions-${portfolio}</jsdl:JobName></jsdl:JobIdentification>
          <gx:Parameters>
            <gx:Parameter name="portfolio" description="position.portfolio_id"/>
            <gx:Parameter name="run" default="templated-run"/>
            <gx:Parameter name="scenarios" type="integer" default="10"/>
          </gx:Parameters>
          <gx:PreDataStaging>
            <gx:SQLQueryDataStaging>
              <gx:DataSourceRef>demo-market</gx:DataSourceRef>
              <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
              <gx:SQLStatement>SELECT position_id FROM position WHERE portfolio_id = ${portfolio}</gx:SQLStatement>
              <gx:SQLOutputFileName>positions-${portfolio}.csv</gx:SQLOutputFileName>
            </gx:SQLQueryDataStaging>
            <gx:SQLQueryDataStaging>
              <gx:DataSourceRef>demo-market</gx:DataSourceRef>
              <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
              <gx:SQLStatement>SELECT 0.5 AS confidence, 1.25 AS v, 2.5 AS es FROM portfolio WHERE portfolio_id = ${portfolio}</gx:SQLStatement>
              <gx:SQLOutputFileName>summary.csv</gx:SQLOutputFileName>
            </gx:SQLQueryDataStaging>
          </gx:PreDataStaging>
          <gx:PostDataStaging>
            <gx:SQLUpdateDataStaging>
              <gx:DataSourceRef>demo-market</gx:DataSourceRef>
              <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
              <gx:SQLStatement>
                INSERT INTO var_summary (run_id, confidence, var, expected_shortfall, pnl_mean, pnl_stddev, scenarios)
                VALUES (${run}, ?, ?, ?, 0, 0, ${scenarios})
              </gx:SQLStatement>
              <gx:SQLInputFileName>summary.csv</gx:SQLInputFileName>
            </gx:SQLUpdateDataStaging>
          </gx:PostDataStaging>
        </jsdl:JobDescription>
      </jsdl:JobDefinition>
      """;

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement alice;
  static JobManagement bob;
  static JobManagement admin;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .secure()
            .demo(POSITIONS)
            .account(TestAccount.admin("carol"))
            .start();
    TestAccount a = server.admin();
    admin = JobManagementClients.of(server, new Login.Basic(a.name(), a.password()));
    // the users over SOAP: a `gantry-server user add` JVM each took seconds
    for (String user : List.of("alice", "bob")) {
      admin.addUser(user, TestAccount.defaultPassword(user), "user", null);
    }
    alice = client("alice");
    bob = client("bob");
  }

  private static JobManagement client(String user) {
    return JobManagementClients.of(
        server, new Login.Basic(user, TestAccount.defaultPassword(user)));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static JobDocument document(String xml, Map<String, String> values) {
    JobDocument d = TestJobs.documentOf(xml);
    return new JobDocument(d.getJobDefinition(), values(values));
  }

  static List<ParameterValue> values(Map<String, String> values) {
    return values.entrySet().stream()
        .map(e -> new ParameterValue(e.getKey(), e.getValue()))
        .toList();
  }

  static Map<String, String> map(List<ParameterValue> values) {
    Map<String, String> map = new LinkedHashMap<>();
    if (values != null) {
      values.forEach(p -> map.put(p.name, p.value));
    }
    return map;
  }

  private static JobStatusInfo succeeded(JobManagement client, String jobId) {
    JobStatusInfo status = TestJobs.awaitFinal(client, jobId, JOB_TIMEOUT);
    assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
    return status;
  }

  private static long stagedRows(JobManagement client, String jobId, String file) throws Exception {
    return client.getJobResults(jobId).stagedIn.stream()
        .filter(f -> f.target.endsWith(file))
        .findFirst()
        .orElseThrow()
        .rows;
  }

  @Test
  @Order(1)
  void valuesGivenWithSubmitJobAreBoundAndAnInjectionAttemptStaysData() throws Exception {
    String desk =
        alice.submitJob(document(TEMPLATE, Map.of("portfolio", "EQ-US", "run", "run-desk-1")));
    String attack =
        alice.submitJob(
            document(TEMPLATE, Map.of("portfolio", "EQ-US' OR '1'='1", "run", "run-attack")));
    succeeded(alice, desk);
    succeeded(alice, attack);
    assertTrue(
        stagedRows(alice, desk, "positions-EQ-US.csv") > POSITIONS / 10,
        "the desk's positions (of every business date the demo keeps)");
    assertEquals(
        0,
        stagedRows(alice, attack, "positions-EQ-US' OR '1'='1.csv"),
        "the value was compared as a portfolio id, not run as SQL");
  }

  @Test
  @Order(2)
  void theJobKeepsItsValuesAndTheTemplateAsWritten() throws Exception {
    String id = alice.submitJob(document(TEMPLATE, Map.of("portfolio", "EQ-US", "run", "kept")));
    JobStatusInfo status = alice.getJobStatus(id);
    assertEquals(
        Map.of("portfolio", "EQ-US", "run", "kept", "scenarios", "10"), map(status.parameters));
    assertEquals("positions-EQ-US", status.name);
    JobDocument definition = alice.getJobDefinition(id);
    assertEquals(
        Map.of("portfolio", "EQ-US", "run", "kept", "scenarios", "10"),
        map(definition.getParameters()));
    String text = text(definition);
    assertTrue(text.contains("portfolio_id = ${portfolio}"), text);
    assertFalse(text.contains("'EQ-US'"), text);
    succeeded(alice, id);
  }

  @Test
  @Order(3)
  void missingUnknownAndMistypedValuesAreRefusedNamingTheParameter() {
    InvalidJobFault missing =
        assertThrows(InvalidJobFault.class, () -> alice.submitJob(document(TEMPLATE, Map.of())));
    assertTrue(
        problems(missing).contains("parameter portfolio has no value and no default"),
        problems(missing));
    InvalidJobFault unknown =
        assertThrows(
            InvalidJobFault.class,
            () -> alice.submitJob(document(TEMPLATE, Map.of("portfolio", "A", "portfolo", "B"))));
    assertTrue(
        problems(unknown).contains("parameter portfolo is given a value but is not declared"),
        problems(unknown));
    InvalidJobFault mistyped =
        assertThrows(
            InvalidJobFault.class,
            () ->
                alice.submitJob(document(TEMPLATE, Map.of("portfolio", "A", "scenarios", "ten"))));
    assertTrue(problems(mistyped).contains("parameter scenarios (integer)"), problems(mistyped));
    // what gantry submit --set portfolio= sends: refused here too, not failed later
    InvalidJobFault empty =
        assertThrows(
            InvalidJobFault.class,
            () -> alice.submitJob(document(TEMPLATE, Map.of("portfolio", ""))));
    assertTrue(
        problems(empty).contains("parameter portfolio is given an empty value"), problems(empty));
    assertFalse(
        alice.validateJob(document(TEMPLATE, Map.of())).valid,
        "validateJob checks values as submitJob does");
    assertTrue(alice.validateJob(document(TEMPLATE, Map.of("portfolio", "A"))).valid);
  }

  @Test
  @Order(4)
  void resubmitRunsTheStoredTemplateWithOverridesAndLinksTheOriginal() throws Exception {
    String original =
        alice.submitJob(document(TEMPLATE, Map.of("portfolio", "EQ-US", "run", "first")));
    succeeded(alice, original);
    String again = alice.resubmitJob(original, values(Map.of("run", "second")));
    JobStatusInfo status = succeeded(alice, again);
    assertEquals(original, status.resubmittedFrom);
    assertEquals("alice", status.owner);
    assertEquals(
        Map.of("portfolio", "EQ-US", "run", "second", "scenarios", "10"), map(status.parameters));
    assertNull(alice.getJobStatus(original).resubmittedFrom);
    assertEquals(
        stagedRows(alice, original, "positions-EQ-US.csv"),
        stagedRows(alice, again, "positions-EQ-US.csv"));
    InvalidJobFault wrong =
        assertThrows(
            InvalidJobFault.class,
            () -> alice.resubmitJob(original, values(Map.of("scenarios", "-x"))));
    assertTrue(problems(wrong).contains("parameter scenarios"), problems(wrong));
  }

  @Test
  @Order(5)
  void onlyTheOwnerOrAnAdministratorMayResubmit() throws Exception {
    String original = alice.submitJob(document(TEMPLATE, Map.of("portfolio", "EQ-US")));
    assertThrows(JobNotFoundFault.class, () -> bob.resubmitJob(original, List.of()));
    String byAdmin = admin.resubmitJob(original, values(Map.of("run", "by-admin")));
    JobStatusInfo status = alice.getJobStatus(byAdmin);
    assertEquals("alice", status.owner, "a resubmission belongs to the original's owner");
    assertEquals(original, status.resubmittedFrom);
    succeeded(alice, byAdmin);
    succeeded(alice, original);
  }

  @Test
  @Order(99) // closes the server: H2 opens the demo database in one process at a time
  void stageOutBindsTemplateValuesBesideTheInputColumns() throws Exception {
    server.close();
    try (Connection c =
            DriverManager.getConnection(
                new DemoMarket(server.dataDir().resolve("demo"), POSITIONS).jdbcUrl(), "sa", "");
        PreparedStatement ps =
            c.prepareStatement(
                "select confidence, var, expected_shortfall, scenarios from var_summary"
                    + " where run_id = ?")) {
      for (String run : List.of("run-desk-1", "kept", "first", "second", "by-admin")) {
        ps.setString(1, run);
        try (ResultSet rs = ps.executeQuery()) {
          assertTrue(rs.next(), "the row of run " + run);
          assertEquals(0.5, rs.getDouble(1));
          assertEquals(1.25, rs.getDouble(2));
          assertEquals(2.5, rs.getDouble(3));
          assertEquals(10, rs.getInt(4));
          assertFalse(rs.next());
        }
      }
      ps.setString(1, "run-attack");
      try (ResultSet rs = ps.executeQuery()) {
        assertFalse(rs.next(), "no portfolio matched the attack, so nothing was written");
      }
    }
  }

  private static String problems(InvalidJobFault fault) {
    return fault.getFaultInfo().problems.stream()
        .map(p -> p.path + ": " + p.message)
        .reduce("", (a, b) -> a + b + "\n");
  }

  private static String text(JobDocument document) throws Exception {
    StringWriter out = new StringWriter();
    HardenedXml.transformerFactory()
        .newTransformer()
        .transform(new DOMSource(document.getJobDefinition()), new StreamResult(out));
    return out.toString();
  }
}
