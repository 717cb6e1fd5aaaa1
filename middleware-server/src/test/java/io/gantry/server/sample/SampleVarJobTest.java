package io.gantry.server.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl) end to end on a real server: SQL stage-in
 * in two groups with parameter binding, scp from the demo SSH host, mcvar on 2 ranks through the
 * real mpirun, stage-out of the run, its inputs' checksums and every node's results into the demo
 * database; a resubmission for an old business date takes that date's book, closes and history; a
 * re-run the same day after the book and the market moved sees both. The runs are made once for the
 * class and each test reads what they left; the intraday re-run changes the demo database, so it
 * comes last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SampleVarJobTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");

  private static final String ADMIN_PASSWORD = "the sample's admin password";

  /**
   * The nightly chain's node: one desk (every node above it is reported too) is the chain's point
   * as much as the whole bank, in a fraction of the bank's stage-in and Monte Carlo time.
   */
  private static final String CHAIN_PORTFOLIO = "BANK/GANTRY-EU/EQUITIES/EQ-JP";

  @TempDir static Path dir;
  private static Path dataDir;
  private static GantryTestServerBuilder builder;
  private static GantryTestServer server;
  private static JobManagement client;

  /** Every run the tests look at, made once: each test reads the demo database afterwards. */
  private static List<String> mcvarApplications;

  private static String named;
  private static String described;
  private static String again;
  private static String oldDate;
  private static JobStatusInfo describedStatus;
  private static Map<String, String> nightlyChain;
  private static Map<String, String> deskChain;
  private static Map<String, String> deskRerun;
  private static JobResults describedResults;
  private static JobResults namedResults;
  private static JobResults oldDateResults;
  private static Connection demo;

  /**
   * Starts a server on the defaults (TLS and accounts included), runs the sample as shipped, the
   * named sample, a resubmission of the sample and the sample for an older business date, then
   * stops the server: the demo database is a file of the server's, which H2 opens in one process.
   */
  @BeforeAll
  static void runTheSamples() throws Exception {
    dataDir = dir.resolve("server");
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    builder = sampleServer(dir, dataDir);
    server = builder.start();
    client = JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
    try {
      mcvarApplications =
          client.getServerInfo().applications.stream()
              .filter(a -> a.name.equals("mcvar"))
              .map(a -> a.name + " " + a.version + " " + a.kind + " " + a.processes)
              .toList();
      named = client.submitJob(new JobDocument(namedSample()));
      described = client.submitJob(new JobDocument(sampleJob()));
      oldDate =
          client.submitJob(
              new JobDocument(
                  sampleJob(),
                  List.of(new io.gantry.server.api.ParameterValue("business_date", "2026-11-12"))));
      nightlyChain = runTheNightlyChain();
      deskChain = runTheDeskChain();
      describedStatus = awaitEnd(described, Duration.ofMinutes(4));
      assertEquals(
          JobStateName.SUCCEEDED,
          describedStatus.state,
          () -> "failed: " + describedStatus.failureReason);
      again = client.resubmitJob(described, List.of());
      for (String job : List.of(named, oldDate, again)) {
        JobStatusInfo status = awaitEnd(job, Duration.ofMinutes(4));
        assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
      }
      for (String job : concat(nightlyChain.values(), deskChain.values())) {
        JobStatusInfo status = awaitEnd(job, Duration.ofMinutes(4));
        assertEquals(
            JobStateName.SUCCEEDED,
            status.state,
            () -> status.name + " failed: " + status.failureReason);
      }
      deskRerun = rerunTheDeskChainFromOneDesk();
      describedResults = client.getJobResults(described);
      namedResults = client.getJobResults(named);
      oldDateResults = client.getJobResults(oldDate);
    } finally {
      server.close();
    }
  }

  /**
   * The nightly chain of docs/workflows.md as documented: added as one schedule and run now (what
   * {@code gantry schedule run} does), for the demo's last business date and one desk (the
   * portfolio parameter goes to the stage that declares it, var); its stages by name.
   */
  private static Map<String, String> runTheNightlyChain() throws Exception {
    Element chain =
        parse(Files.readString(REPOSITORY.resolve("jsdl-schema/examples/nightly-var-chain.xml")));
    client.addSchedule(
        "nightly-var",
        "30 18 * * 1-5",
        "Europe/London",
        null,
        new JobDocument(
            chain,
            List.of(
                new io.gantry.server.api.ParameterValue("business_date", "2026-11-20"),
                new io.gantry.server.api.ParameterValue("portfolio", CHAIN_PORTFOLIO))),
        null);
    String last = client.runSchedule("nightly-var");
    Map<String, String> stages = new java.util.TreeMap<>();
    for (JobStatusInfo listed : client.listJobs(List.of(), 0, 100, false).jobs) {
      JobStatusInfo job = client.getJobStatus(listed.jobId); // with where it came from
      if ("nightly-var".equals(job.schedule)) {
        stages.put(job.name, job.jobId);
      }
    }
    assertEquals(List.of("backtest", "report", "var"), List.copyOf(stages.keySet()));
    assertEquals(stages.get("backtest"), last, "schedule run answers the chain's last stage");
    return stages;
  }

  private static List<String> concat(
      java.util.Collection<String> a, java.util.Collection<String> b) {
    List<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** The desk chain's scenarios: few, so that its nine stages add seconds to the class. */
  private static final String DESK_CHAIN_SCENARIOS = "2000";

  /**
   * The nightly chain in stages of docs/workflows.md (scenarios streamed into a pricing stage per
   * desk, aggregate, report) as one schedule run now, for the demo's last business date.
   */
  private static Map<String, String> runTheDeskChain() throws Exception {
    Element chain =
        parse(
            Files.readString(
                REPOSITORY.resolve("jsdl-schema/examples/nightly-var-desk-chain.xml")));
    client.addSchedule(
        "nightly-desks",
        "30 18 * * 1-5",
        "Europe/London",
        null,
        new JobDocument(
            chain,
            List.of(
                new io.gantry.server.api.ParameterValue("business_date", "2026-11-20"),
                new io.gantry.server.api.ParameterValue("scenarios", DESK_CHAIN_SCENARIOS))),
        null);
    String last = client.runSchedule("nightly-desks");
    Map<String, String> stages = new java.util.TreeMap<>();
    for (JobStatusInfo listed : client.listJobs(List.of(), 0, 100, false).jobs) {
      JobStatusInfo job = client.getJobStatus(listed.jobId);
      if ("nightly-desks".equals(job.schedule)) {
        stages.put(job.name, job.jobId);
      }
    }
    assertEquals(
        List.of(
            "aggregate",
            "price-EQ-EU",
            "price-EQ-JP",
            "price-EQ-US",
            "price-FX-G10",
            "price-RATES-EUR",
            "price-RATES-USD",
            "report",
            "scenarios"),
        List.copyOf(stages.keySet()));
    assertEquals(stages.get("report"), last, "schedule run answers the chain's last stage");
    return stages;
  }

  /**
   * The desk chain's VaR is the one-program mcvar run's on the same inputs byte for byte: mcvar run
   * here on the scenarios stage's extract and the whole bank's book (the described sample's extract
   * of the same date) writes the aggregate's files; the report is the aggregate's summary, every
   * desk in it; each desk priced the scenarios stage's very file.
   */
  @Test
  void theDeskChainsVarIsTheOneProgramRunsByteForByte() throws Exception {
    Path scenarios = server.jobDirectory(deskChain.get("scenarios"));
    Path aggregate = server.jobDirectory(deskChain.get("aggregate"));
    Path whole = dir.resolve("one-program");
    ProcessBuilder pb =
        new ProcessBuilder(
                MCVAR.toString(),
                "--factors",
                scenarios.resolve("factors.csv.gz").toString(),
                "--history",
                scenarios.resolve("history.csv.gz").toString(),
                "--params",
                scenarios.resolve("params.csv.gz").toString(),
                "--positions",
                server.jobDirectory(described).resolve("positions.csv.gz").toString(),
                "--out-dir",
                whole.toString(),
                "--run-id",
                deskChain.get("aggregate"))
            .redirectErrorStream(true);
    pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
    pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    Process mcvar = pb.start();
    String said = new String(mcvar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, mcvar.waitFor(), said);
    for (String file :
        List.of("var_summary.csv", "pnl_distribution.csv", "node_contributions.csv", "run.csv")) {
      assertEquals(
          Files.readString(whole.resolve(file)),
          gunzip(aggregate.resolve("results/" + file + ".gz")),
          file + " of the chain against the one-program run");
    }
    assertEquals(
        -1L,
        Files.mismatch(
            whole.resolve("node_pnl.csv.gz"), aggregate.resolve("results/node_pnl.csv.gz")));
    assertTrue(
        Files.readString(whole.resolve("run.csv")).contains("," + DESK_CHAIN_SCENARIOS + ","),
        "the schedule's scenarios reach every stage");
    String report =
        Files.readString(server.jobDirectory(deskChain.get("report")).resolve("var-report.csv"));
    assertEquals(gunzip(aggregate.resolve("results/var_summary.csv.gz")), report);
    for (String desk : List.of("EQ-US", "RATES-USD", "FX-G10", "EQ-EU", "EQ-JP", "RATES-EUR")) {
      assertTrue(report.contains("/" + desk + ","), desk + " in the report: " + report);
      Path priced = server.jobDirectory(deskChain.get("price-" + desk));
      assertEquals(
          -1L,
          Files.mismatch(scenarios.resolve("scenarios.csv.gz"), priced.resolve("scenarios.csv.gz")),
          desk + " priced the scenarios stage's file");
    }
  }

  /**
   * {@code gantry resubmit --from-stage price-EQ-JP} given the desk chain's last stage: that desk,
   * the aggregate and the report run again; the scenarios stage (which the desk streamed, {@code
   * gx:AfterStart}) and the five other desks are reused. Their stages by name, the new jobs' ids.
   */
  private static Map<String, String> rerunTheDeskChainFromOneDesk() throws Exception {
    List<io.gantry.server.api.RerunStage> again =
        client.resubmitChain(List.of(deskChain.get("report")), "price-EQ-JP");
    assertEquals(
        List.of("price-EQ-JP", "aggregate", "report"),
        again.stream().map(r -> r.stage).toList(),
        "the desk and what is downstream of it run again, nothing upstream");
    Map<String, String> stages = new java.util.TreeMap<>();
    for (io.gantry.server.api.RerunStage r : again) {
      JobStatusInfo status = awaitEnd(r.newJobId, Duration.ofMinutes(4));
      assertEquals(
          JobStateName.SUCCEEDED,
          status.state,
          () -> "rerun " + status.name + " failed: " + status.failureReason);
      stages.put(r.stage, r.newJobId);
    }
    return stages;
  }

  /**
   * The desk chain rerun from one desk gives the first run's VaR byte for byte (but the run id, the
   * new aggregate's job): the desk read the scenarios stage's very file, and the aggregate the
   * other desks' first-run outputs.
   */
  @Test
  void theDeskChainRerunFromOneDeskReusesTheRestAndGivesTheSameVar() throws Exception {
    String first = deskChain.get("aggregate");
    String rerun = deskRerun.get("aggregate");
    Path was = server.jobDirectory(first).resolve("results");
    Path is = server.jobDirectory(rerun).resolve("results");
    for (String file :
        List.of(
            "var_summary.csv.gz",
            "pnl_distribution.csv.gz",
            "node_contributions.csv.gz",
            "node_pnl.csv.gz")) {
      assertEquals(
          gunzip(was.resolve(file)).replace(first, rerun),
          gunzip(is.resolve(file)),
          file + " of the rerun against the first run");
    }
    Path desk = server.jobDirectory(deskRerun.get("price-EQ-JP"));
    assertEquals(
        -1L,
        Files.mismatch(
            server.jobDirectory(deskChain.get("scenarios")).resolve("scenarios.csv.gz"),
            desk.resolve("scenarios.csv.gz")),
        "the rerun desk streamed the first run's scenarios");
    assertEquals(
        gunzip(was.resolve("var_summary.csv.gz")).replace(first, rerun),
        Files.readString(server.jobDirectory(deskRerun.get("report")).resolve("var-report.csv")));
  }

  private static String gunzip(Path file) throws Exception {
    try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theNightlyChainReportsItsVarStagesOwnResultFile() throws Exception {
    // the server has stopped; its job directories stay
    Path var = server.jobDirectory(nightlyChain.get("var"));
    String report =
        Files.readString(server.jobDirectory(nightlyChain.get("report")).resolve("var-report.csv"));
    try (java.io.InputStream in =
        new java.util.zip.GZIPInputStream(
            Files.newInputStream(var.resolve("results/var_summary.csv.gz")))) {
      assertEquals(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8), report);
    }
    assertTrue(report.contains("BANK,"), report);
    assertTrue(
        report.contains(CHAIN_PORTFOLIO + ",") && !report.contains("BANK/GANTRY-US"),
        "the schedule's portfolio reaches the var stage, which reports that desk's nodes: "
            + report);
  }

  /**
   * A server on the defaults, TLS and accounts included, with the demo: the first administrator's
   * password is configured.
   */
  static GantryTestServerBuilder sampleServer(Path dir, Path dataDir) throws Exception {
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    return GantryTestServer.builder(dir)
        .dataDir(dataDir)
        .secure()
        .demo(300)
        .settings(
            Map.ofEntries(
                Map.entry("admin.password-file", adminPassword.toString()),
                // mcvar runs inside the job's sandbox, which shows it only from an allowed root
                // (and, as with bin/gantry-server and scripts/run-sample, the server offers its
                // built-in mcvar application found there to the named form, var-job-named.jsdl)
                Map.entry("jobs.allowed-executable-roots", MCVAR.getParent().toString())));
  }

  static JobManagement adminClient(GantryTestServer server) {
    return JobManagementClients.of(server, new Login.Basic("admin", ADMIN_PASSWORD));
  }

  private static Element namedSample() throws Exception {
    return parse(Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job-named.jsdl")));
  }

  private static Element parse(String xml) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder()
        .parse(new InputSource(new StringReader(xml)))
        .getDocumentElement();
  }

  /** The example as shipped, pointed at this test's demo SSH port and the built mcvar. */
  static Element sampleJob(GantryTestServer server) throws Exception {
    return parse(
        Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
            .replace(
                "<gx:RemotePort>2222</gx:RemotePort>",
                "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
            .replace(
                "<gx:Executable>mcvar</gx:Executable>",
                "<gx:Executable>" + MCVAR + "</gx:Executable>"));
  }

  private static Element sampleJob() throws Exception {
    return sampleJob(server);
  }

  @Test
  void theNamedSampleRunsTheServersBuiltInMcvarWithTheFiguresOfTheDescribedSample()
      throws Exception {
    assertEquals(
        List.of("mcvar 1.0 mpirun 2"),
        mcvarApplications,
        "the built-in mcvar, found in the allowed executable roots");
    assertEquals(RESULT_FILES, namedResults.stagedOut.size());
    Connection c = demoDatabase();
    assertEquals(
        50000,
        scalar(
            c,
            "select sum(count) from var_node_pnl_distribution where run_id = ? and node = 'BANK'",
            named));
    assertEquals(
        summary(c, described), summary(c, named), "scripts/run-sample prints the README's figures");
  }

  /** The stage-out files of the sample: every mcvar result file but node_pnl.csv.gz. */
  private static final int RESULT_FILES = 8;

  /** The var_node_summary rows of a run, rounded as scripts/run-sample prints them. */
  private static List<String> summary(Connection c, String jobId) throws Exception {
    List<String> rows = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select node, confidence, cast(var as decimal(20, 2)),"
                + " cast(expected_shortfall as decimal(20, 2)), scenarios from var_node_summary"
                + " where run_id = ? order by node, confidence")) {
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
                  + rs.getString(4)
                  + " | "
                  + rs.getString(5));
        }
      }
    }
    assertTrue(rows.size() >= 2 * 9, rows.toString());
    return rows;
  }

  @Test
  void sampleJobStagesComputesAndWritesTheRunAndEveryNodesVarBackIntoSql() throws Exception {
    String jobId = described;
    JobStatusInfo status = describedStatus;
    assertEquals(0, status.exitCode);

    JobResults results = describedResults;
    assertEquals(6, results.stagedIn.size(), "five SQL extracts and one scp transfer");
    Map<String, StagedFileInfo> in = byTarget(results.stagedIn);
    assertTrue(in.get("positions.csv.gz").checksum.startsWith("sha256:"));
    assertEquals(RESULT_FILES, results.stagedOut.size());

    Connection c = demoDatabase();
    assertEquals(
        (long) scalar(c, "select count(*) from position where business_date = ?", "2026-11-20"),
        in.get("positions.csv.gz").rows,
        "the whole bank's book of the business date");
    // the run and its context
    try (PreparedStatement ps =
        c.prepareStatement(
            "select cast(business_date as varchar), method, horizon_days, scenarios, seed,"
                + " lookback_days, base_currency, confidence_levels, program_version"
                + " from var_run where run_id = ?")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), "the run's row");
        assertEquals("2026-11-20", rs.getString(1));
        assertEquals("mc-normal", rs.getString(2));
        assertEquals(1, rs.getInt(3));
        assertEquals(50000, rs.getLong(4));
        assertEquals(20261122L, rs.getLong(5));
        assertEquals(250, rs.getInt(6));
        assertEquals("USD", rs.getString(7));
        assertEquals("0.95;0.99", rs.getString(8));
        assertTrue(rs.getString(9).startsWith("mcvar "), rs.getString(9));
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "select input, sha256 from var_run_input where run_id = ? order by input")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        List<String> inputs = new java.util.ArrayList<>();
        while (rs.next()) {
          inputs.add(rs.getString(1));
          assertTrue(rs.getString(2).matches("[0-9a-f]{64}"), rs.getString(2));
        }
        assertEquals(List.of("factors", "history", "params", "positions"), inputs);
      }
    }
    // every node of the hierarchy, on the same scenarios
    assertEquals(
        scalar(c, "select count(*) from hierarchy_node where node <> ?", "") * 2,
        scalar(c, "select count(*) from var_node_summary where run_id = ?", jobId),
        "every node at both confidence levels");
    assertEquals(
        0,
        scalar(
            c,
            "select count(*) from var_node_summary where run_id = ?"
                + " and business_date <> date '2026-11-20'",
            jobId));
    double var99 =
        scalar(
            c,
            "select var from var_node_summary where run_id = ? and node = 'BANK'"
                + " and confidence = 0.99",
            jobId);
    double var95 =
        scalar(
            c,
            "select var from var_node_summary where run_id = ? and node = 'BANK'"
                + " and confidence = 0.95",
            jobId);
    assertTrue(var99 > var95 && var95 > 0, "VaR grows with confidence: " + var95 + " " + var99);
    double desks =
        scalar(
            c,
            "select sum(s.var) from var_node_summary s join hierarchy_node n on n.node = s.node"
                + " where s.run_id = ? and n.node_kind = 'desk' and s.confidence = 0.99",
            jobId);
    assertTrue(desks > var99, "diversification: the desks' VaRs add up to more than the bank's");
    assertEquals(
        var99,
        scalar(
            c,
            "select sum(var_contribution) from var_node_contribution"
                + " where run_id = ? and node = 'BANK' and confidence = 0.99",
            jobId),
        Math.abs(var99) * 1e-6,
        "the legal entities' Euler contributions add up to the bank's VaR");
    assertEquals(
        var99,
        scalar(
            c,
            "select sum(var_contribution) from var_position_contribution"
                + " where run_id = ? and node = 'BANK' and confidence = 0.99",
            jobId),
        Math.abs(var99) * 1e-6,
        "the positions' Euler contributions add up to the bank's VaR");
    assertEquals(
        50000,
        scalar(
            c,
            "select sum(count) from var_node_pnl_distribution where run_id = ?"
                + " and node = 'BANK/GANTRY-EU/EQUITIES/EQ-JP'",
            jobId));
  }

  /**
   * What a regulator asks ("reproduce the VaR of that day"): the stored job, run again, gives the
   * same inputs (their checksums) and every result row again, to the last digit; only the run id
   * differs.
   */
  @Test
  void aResubmittedJobReproducesEveryResultRowButItsRunId() throws Exception {
    String first = described;
    Connection c = demoDatabase();
    for (String table :
        List.of(
            "var_run",
            "var_run_input",
            "var_node_summary",
            "var_node_pnl_distribution",
            "var_position_contribution",
            "var_node_contribution")) {
      List<String> rows = rowsWithoutRunId(c, table, first);
      assertTrue(!rows.isEmpty(), table);
      assertEquals(rows, rowsWithoutRunId(c, table, again), table);
    }
  }

  /** Every column of {@code table}'s rows of a run but run_id, in a stable order. */
  private static List<String> rowsWithoutRunId(Connection c, String table, String runId)
      throws Exception {
    List<String> rows = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement("select * from " + table + " where run_id = ?")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= columns; i++) {
            if (!rs.getMetaData().getColumnName(i).equalsIgnoreCase("run_id")) {
              row.append(rs.getString(i)).append('|');
            }
          }
          rows.add(row.toString());
        }
      }
    }
    java.util.Collections.sort(rows);
    return rows;
  }

  @Test
  void aResubmissionForAnOldDateUsesThatDatesBookLevelsAndHistory() throws Exception {
    String today = described;
    String old = oldDate;
    Map<String, StagedFileInfo> before = byTarget(describedResults.stagedIn);
    Map<String, StagedFileInfo> after = byTarget(oldDateResults.stagedIn);
    Connection c = demoDatabase();
    assertEquals(
        (long) scalar(c, "select count(*) from position where business_date = ?", "2026-11-12"),
        after.get("positions.csv.gz").rows,
        "that date's book");
    long factors = after.get("factors.csv.gz").rows;
    assertEquals(
        factors
            * (long)
                scalar(
                    c,
                    "select count(distinct as_of) from factor_history where as_of <= ?",
                    "2026-11-12"),
        after.get("history.csv.gz").rows,
        "the history up to that date, not beyond");
    assertEquals(
        "2026-11-12",
        text(c, "select cast(business_date as varchar) from var_run where run_id = ?", old));
    assertEquals(
        0,
        scalar(
            c,
            "select count(*) from var_node_summary where run_id = ?"
                + " and business_date <> date '2026-11-12'",
            old));
    assertTrue(
        scalar(
                c,
                "select var from var_node_summary where run_id = ? and node = 'BANK' and confidence = 0.99",
                old)
            != scalar(
                c,
                "select var from var_node_summary where run_id = ? and node = 'BANK' and confidence = 0.99",
                today),
        "another date, another VaR");
    assertTrue(
        !before.get("factors.csv.gz").checksum.equals(after.get("factors.csv.gz").checksum),
        "that date's closes");
  }

  /**
   * The sample as shipped run again the same day after the book and the market moved: a trade
   * booked after the first run and the close moved (what scripts/move-demo-levels does), made in
   * the demo database between two starts of the server (a file of the server's, which H2 opens in
   * one process). The re-run sees both: nothing is cached. Last, since it changes the database the
   * other tests read.
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void anIntradayReRunSeesANewTradeAndAMovedCloseNothingIsCached() throws Exception {
    Map<String, StagedFileInfo> before = byTarget(describedResults.stagedIn);
    try (java.sql.Statement s = demoDatabase().createStatement()) {
      s.execute(
          "insert into position (business_date, position_id, portfolio_id, instrument, factor_id,"
              + " currency, quantity) values (date '2026-11-20', 'P-NEW', 'EQ-US', 'spot',"
              + " 'EQ-US-01', 'USD', 1000)");
      s.execute(
          "update factor_history set level = cast(level * 1.01 as decimal(20, 10))"
              + " where as_of = date '2026-11-20' and factor_id like 'EQ-%'");
    }
    closeDemoDatabase(); // the server opens the file next
    Map<String, StagedFileInfo> after;
    try (GantryTestServer restarted = builder.start()) {
      JobManagement admin = adminClient(restarted);
      String second = admin.submitJob(new JobDocument(sampleJob(restarted)));
      JobStatusInfo status = TestJobs.awaitFinal(admin, second, Duration.ofMinutes(3));
      assertEquals(JobStateName.SUCCEEDED, status.state, () -> "failed: " + status.failureReason);
      after = byTarget(admin.getJobResults(second).stagedIn);
    }
    for (String file :
        List.of(
            "positions.csv.gz",
            "params.csv.gz",
            "factor-ids.csv",
            "factors.csv.gz",
            "history.csv.gz")) {
      assertTrue(
          after.get(file).step.startsWith("sql-extract["), file + ": " + after.get(file).step);
    }
    assertEquals(before.get("positions.csv.gz").rows + 1, after.get("positions.csv.gz").rows);
    assertTrue(
        !before.get("factors.csv.gz").checksum.equals(after.get("factors.csv.gz").checksum),
        "the closes moved, so their extract differs");
  }

  /**
   * The stopped server's demo database, opened once for every test that reads it: H2 closes a file
   * database with its last connection, and each opening and closing of this one took seconds.
   */
  private static Connection demoDatabase() throws Exception {
    if (demo == null) {
      demo = demoDatabase(dataDir);
    }
    return demo;
  }

  @AfterAll
  static void closeDemoDatabase() throws Exception {
    if (demo != null) {
      demo.close();
      demo = null;
    }
  }

  /** The demo market database of a stopped server's data directory. */
  static Connection demoDatabase(Path dataDir) throws Exception {
    return DriverManager.getConnection(
        new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "");
  }

  private static String text(Connection c, String sql, String value) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, value);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), sql);
        return rs.getString(1);
      }
    }
  }

  static Map<String, StagedFileInfo> byTarget(List<StagedFileInfo> files) {
    Map<String, StagedFileInfo> m = new java.util.HashMap<>();
    files.forEach(f -> m.put(f.target, f));
    return m;
  }

  private static JobStatusInfo awaitEnd(String jobId, Duration timeout) {
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
