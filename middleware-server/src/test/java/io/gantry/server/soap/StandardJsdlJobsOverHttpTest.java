package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.ApplicationInfo;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.api.ValidationResult;
import io.gantry.testing.server.GantryTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard JSDL as other grid systems write it, run by a real server over HTTP: a job without
 * Application (staging only), an HPC Profile Application, named applications from the server's
 * configuration, and the refusals of what the server cannot run.
 */
class StandardJsdlJobsOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(30);
  static final String JSDL = "http://schemas.ggf.org/jsdl/2005/11/jsdl";

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement client;
  static Path scratch;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    scratch = Files.createDirectories(dir.resolve("scratch"));
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("application.greet.executable", "/bin/echo");
    settings.put("application.greet.version", "1.0");
    settings.put("application.greet.arguments", "hello from greet 1.0");
    settings.put("application.greet.description", "says hello");
    settings.put("application.greet2.name", "greet");
    settings.put("application.greet2.version", "2.0");
    settings.put("application.greet2.executable", "/bin/echo");
    settings.put("application.greet2.arguments", "hello from greet 2.0");
    settings.put("application.wide.executable", "/bin/echo");
    settings.put("application.wide.kind", "mpirun");
    settings.put("application.wide.processes", "2");
    settings.put("application.payroll.executable", "/bin/echo");
    settings.put("application.payroll.users", "alice, bob");
    settings.put("filesystem.SCRATCH.path", scratch.toString());
    server = GantryTestServer.builder(dir).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String job(String description) {
    return "<JobDefinition xmlns=\""
        + JSDL
        + "\"><JobDescription>"
        + description
        + "</JobDescription></JobDefinition>";
  }

  private static String named(String name, String version) {
    return job(
        "<Application><ApplicationName>"
            + name
            + "</ApplicationName>"
            + (version == null ? "" : "<ApplicationVersion>" + version + "</ApplicationVersion>")
            + "</Application>");
  }

  private static String stdout(String id) throws Exception {
    byte[] data = client.getJobOutput(id, OutputStreamName.STDOUT, 0, 4096).data;
    return data == null ? "" : new String(data, StandardCharsets.UTF_8);
  }

  private static List<String> errors(ValidationResult result) {
    return result.problems.stream()
        .filter(p -> p.severity.equals("ERROR"))
        .map(p -> p.message)
        .toList();
  }

  @Test
  void aJobWithoutApplicationStagesInThenOutAndSucceedsWithoutRunningAnything() throws Exception {
    String xml =
        job(
            "<JobIdentification><JobName>copy-positions</JobName></JobIdentification>"
                + "<gx:PreDataStaging xmlns:gx=\"urn:gantry:jsdl:ext:1\"><gx:SQLQueryDataStaging>"
                + "<gx:DataSourceRef>risk</gx:DataSourceRef><gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>"
                + "<gx:SQLStatement>SELECT 'copy-' || position_id AS job_id, quantity FROM position</gx:SQLStatement>"
                + "<gx:SQLOutputFileName>copy.csv</gx:SQLOutputFileName></gx:SQLQueryDataStaging></gx:PreDataStaging>"
                + "<gx:PostDataStaging xmlns:gx=\"urn:gantry:jsdl:ext:1\"><gx:SQLUpdateDataStaging>"
                + "<gx:DataSourceRef>risk</gx:DataSourceRef><gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>"
                + "<gx:SQLStatement>INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)</gx:SQLStatement>"
                + "<gx:SQLInputFileName>copy.csv</gx:SQLInputFileName></gx:SQLUpdateDataStaging></gx:PostDataStaging>");
    String id = client.submitJob(TestJobs.documentOf(xml));
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    assertNull(status.exitCode, "no program ran");
    assertNull(status.started, "no program ran");
    assertEquals(
        RiskDatabase.POSITIONS,
        risk.count("SELECT COUNT(*) FROM job_result WHERE job_id LIKE 'copy-%'"));
    List<String> trail =
        client.getJobAudit(id).entries.stream()
            .filter(e -> !e.kind.equals("DATA_MOVEMENT"))
            .map(e -> e.fromState + "->" + e.toState)
            .toList();
    assertEquals(
        List.of(
            "null->QUEUED",
            "QUEUED->STAGING_IN",
            "STAGING_IN->STAGED",
            "STAGED->STAGING_OUT",
            "STAGING_OUT->SUCCEEDED"),
        trail);
  }

  @Test
  void anHpcProfileApplicationRunsLikeAPosixApplicationInEitherNamespaceForm() throws Exception {
    for (String namespace :
        List.of(
            "http://schemas.ggf.org/jsdl/2006/07/jsdl-hpcpa",
            "http://schemas.ogf.org/jsdl/2006/07/jsdl-hpcpa")) {
      String xml =
          job(
              "<Application><h:HPCProfileApplication xmlns:h=\""
                  + namespace
                  + "\">"
                  + "<h:Executable>/bin/sh</h:Executable><h:Argument>-c</h:Argument>"
                  + "<h:Argument>echo \"$GREETING from hpcpa\"</h:Argument><h:Output>out.txt</h:Output>"
                  + "<h:Environment name=\"GREETING\">hello</h:Environment>"
                  + "</h:HPCProfileApplication></Application>");
      String id = client.submitJob(TestJobs.documentOf(xml));
      JobStatusInfo status = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
      assertEquals(0, status.exitCode);
      assertEquals(
          "hello from hpcpa\n",
          Files.readString(server.dataDir().resolve("jobs").resolve(id).resolve("out.txt")));
    }
  }

  @Test
  void aNamedApplicationRunsTheConfiguredProgramAndTheHighestVersionWhenNoneIsAsked()
      throws Exception {
    String first = client.submitJob(TestJobs.documentOf(named("greet", "1.0")));
    String latest = client.submitJob(TestJobs.documentOf(named("greet", null)));
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, first, LIMIT).state);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, latest, LIMIT).state);
    assertEquals("hello from greet 1.0\n", stdout(first));
    assertEquals("hello from greet 2.0\n", stdout(latest));
  }

  @Test
  void anUnknownApplicationNameIsAValidationErrorListingWhatTheServerOffers() throws Exception {
    ValidationResult result = client.validateJob(TestJobs.documentOf(named("blast", null)));
    assertFalse(result.valid);
    assertEquals(
        List.of(
            "ApplicationName blast is not an application this server offers to local; it offers"
                + " greet 1.0, greet 2.0, wide (gantry applications lists them)"),
        errors(result));
    InvalidJobFault fault =
        assertThrows(
            InvalidJobFault.class,
            () -> client.submitJob(TestJobs.documentOf(named("blast", null))));
    assertTrue(fault.getMessage().contains("invalid"), fault.getMessage());
  }

  @Test
  void anUnknownVersionIsAValidationErrorListingTheVersionsOffered() {
    ValidationResult result = client.validateJob(TestJobs.documentOf(named("greet", "3.0")));
    assertFalse(result.valid);
    assertEquals(
        List.of(
            "application greet has no version 3.0; it offers greet 1.0, greet 2.0"
                + " (gantry applications lists them)"),
        errors(result));
  }

  @Test
  void anApplicationLimitedToOtherUsersIsNeitherRunNorListedForTheCaller() {
    ValidationResult result = client.validateJob(TestJobs.documentOf(named("payroll", null)));
    assertFalse(result.valid);
    assertTrue(
        errors(result)
            .get(0)
            .startsWith(
                "ApplicationName payroll is not an application this server" + " offers to local"),
        errors(result).toString());
    List<String> listed =
        client.getServerInfo().applications.stream()
            .map(
                a ->
                    a.name
                        + " "
                        + a.version
                        + " "
                        + a.kind
                        + " "
                        + a.processes
                        + " "
                        + a.description)
            .toList();
    assertEquals(
        List.of(
            "greet 1.0 posix 1 says hello", "greet 2.0 posix 1 null", "wide null mpirun 2 null"),
        listed);
  }

  @Test
  void aNamedApplicationTakesItsProcessCountFromTotalCpuCountAndIsRefusedBeyondTheSlots() {
    String xml =
        job(
            "<Application><ApplicationName>wide</ApplicationName></Application>"
                + "<Resources><TotalCPUCount><Exact>5</Exact></TotalCPUCount></Resources>");
    ValidationResult result = client.validateJob(TestJobs.documentOf(xml));
    assertEquals(
        List.of(
            "the job asks for 5 processes; this server has 2 compute slots (setting slots.total)"),
        errors(result));
    assertTrue(
        client.validateJob(TestJobs.documentOf(named("wide", null))).valid,
        "2 processes by default");
  }

  private static String wide(String totalCpuCount) {
    return job(
        "<Application><ApplicationName>wide</ApplicationName></Application>"
            + "<Resources><TotalCPUCount>"
            + totalCpuCount
            + "</TotalCPUCount></Resources>");
  }

  @Test
  void aTotalCpuCountRangeIsHonouredOrRefusedWithItsReasonNeverIgnored() throws Exception {
    assertTrue(
        client.validateJob(TestJobs.documentOf(wide("<LowerBoundedRange>1</LowerBoundedRange>")))
            .valid,
        "the default of 2 lies in the range");
    assertEquals(
        List.of(
            "the job asks for 3 processes; this server has 2 compute slots (setting slots.total)"),
        errors(
            client.validateJob(
                TestJobs.documentOf(
                    wide(
                        "<Range><LowerBound>3</LowerBound>"
                            + "<UpperBound>4</UpperBound></Range>")))),
        "the lower bound, nearest the default of 2");
    assertEquals(
        List.of(
            "Resources/TotalCPUCount (< 1) allows no whole number of processes from 1 to 65536;"
                + " application wide would run 2"),
        errors(
            client.validateJob(
                TestJobs.documentOf(
                    wide(
                        "<UpperBoundedRange exclusiveBound=\"true\">1"
                            + "</UpperBoundedRange>")))));
    String posix =
        job(
            "<Application><p:POSIXApplication xmlns:p=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\">"
                + "<p:Executable>/bin/true</p:Executable></p:POSIXApplication></Application>"
                + "<Resources><TotalCPUCount><LowerBoundedRange>4</LowerBoundedRange></TotalCPUCount></Resources>");
    assertEquals(
        List.of(
            "Resources/TotalCPUCount (>= 4) does not allow 1 process, which a POSIX application runs;"
                + " make them agree or leave TotalCPUCount out"),
        errors(client.validateJob(TestJobs.documentOf(posix))));

    String id =
        client.submitJob(TestJobs.documentOf(wide("<UpperBoundedRange>1.5</UpperBoundedRange>")));
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    assertTrue(
        client.getJobAudit(id).entries.stream()
            .anyMatch(e -> e.text != null && e.text.contains("started on 1 slot(s)")),
        "the upper bound 1.5 allows 1 process, not the default 2");
  }

  @Test
  void aPosixApplicationWithoutExecutableIsAnInvalidJobReportNotAServerFault() {
    String xml =
        job(
            "<Application><p:POSIXApplication xmlns:p=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\">"
                + "<p:Output>out.txt</p:Output></p:POSIXApplication></Application>");
    ValidationResult result = client.validateJob(TestJobs.documentOf(xml));
    assertFalse(result.valid);
    assertEquals(
        List.of(
            "Executable is missing; POSIXApplication needs the program to run (or use an"
                + " ApplicationName the server offers)"),
        errors(result));
    InvalidJobFault fault =
        assertThrows(InvalidJobFault.class, () -> client.submitJob(TestJobs.documentOf(xml)));
    assertFalse(fault.getMessage().contains("NullPointerException"), fault.getMessage());
  }

  @Test
  void aFileSystemTheServerDoesNotProvideIsRefusedAndAConfiguredOneIsAccepted() {
    String xml =
        job("<Resources><FileSystem name=\"PROJECTS\"/><FileSystem name=\"SCRATCH\"/></Resources>");
    assertEquals(
        List.of("file system PROJECTS is not one this server provides; it provides SCRATCH"),
        errors(client.validateJob(TestJobs.documentOf(xml))));
    assertTrue(
        client.validateJob(
                TestJobs.documentOf(job("<Resources><FileSystem name=\"SCRATCH\"/></Resources>")))
            .valid);
  }

  @Test
  void serverInfoListsApplicationsWithTheirKind() {
    ApplicationInfo wide =
        client.getServerInfo().applications.stream()
            .filter(a -> a.name.equals("wide"))
            .findFirst()
            .orElseThrow();
    assertEquals("mpirun", wide.kind);
    assertEquals(2, wide.processes);
  }
}
