package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that wrote its VaR results as plain CSV and whose stage-out committed its first group into
 * the demo database, then failed in its second: the job page shows the committed step and names it
 * in the failure, and the results page reads the plain CSV files.
 */
class PartialStageOutWebTest {
  @TempDir static Path dir;
  static GantryTestServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = WebTestServer.start(dir, Map.of());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  /**
   * Plain results/var_summary.csv and pnl_distribution.csv; group 1 loads the bins, group 2 a
   * missing table.
   */
  private static String job() {
    String script =
        "mkdir -p results;"
            + " printf 'run_id,confidence,var,expected_shortfall,pnl_mean,pnl_stddev,scenarios\\n"
            + "%s,0.99,1234567.5,1500000.25,-120.5,400000,50000\\n' \"$GANTRY_JOB_ID\" > results/var_summary.csv;"
            + " printf 'run_id,bin,lower,upper,count\\n%s,0,-100,0,5\\n%s,1,0,100,7\\n' \"$GANTRY_JOB_ID\" \"$GANTRY_JOB_ID\""
            + " > results/pnl_distribution.csv";
    String load =
        "<gx:SQLUpdateDataStaging><gx:DataSourceRef>demo-market</gx:DataSourceRef>"
            + "<gx:ExecutionOrderGroup>%d</gx:ExecutionOrderGroup>"
            + "<gx:SQLStatement>INSERT INTO %s (run_id, bin, lower, upper, count) VALUES (?, ?, ?, ?, ?)</gx:SQLStatement>"
            + "<gx:SQLInputFileName>results/pnl_distribution.csv</gx:SQLInputFileName></gx:SQLUpdateDataStaging>";
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\" xmlns:gx=\"urn:gantry:jsdl:ext:1\">"
        + "<jsdl:JobDescription><jsdl:JobIdentification><jsdl:JobName>half-out</jsdl:JobName></jsdl:JobIdentification>"
        + "<jsdl:Application><posix:POSIXApplication><posix:Executable>/bin/sh</posix:Executable>"
        + "<posix:Argument>-c</posix:Argument><posix:Argument>"
        + script.replace("&", "&amp;").replace("<", "&lt;")
        + "</posix:Argument></posix:POSIXApplication></jsdl:Application><gx:PostDataStaging>"
        + load.formatted(1, "var_pnl_distribution")
        + load.formatted(2, "var_no_such_table")
        + "</gx:PostDataStaging></jsdl:JobDescription></jsdl:JobDefinition>";
  }

  @Test
  void theJobPageShowsTheCommittedStepAndTheResultsPageReadsPlainCsv() throws Exception {
    String id = WebTestServer.submitAs(server, WebTestServer.ALICE, job());
    WebVisitor alice = new WebVisitor(server);
    alice.logIn(WebTestServer.ALICE);
    Await.until(
        "job " + id + " failed on its page",
        Duration.ofSeconds(90),
        () -> alice.get("/jobs/" + id).body().contains(">FAILED<"));
    String page = alice.get("/jobs/" + id).body();
    assertTrue(
        page.contains(
            "1 stage-out step(s) had committed before the failure and stay committed:"
                + " sql-load results/pnl_distribution.csv to &#039;demo-market&#039;"),
        page);
    assertTrue(
        page.contains("results/pnl_distribution.csv"),
        "the committed step in the staging manifest");
    assertFalse(page.contains("id=\"no-staging\""), page);
    assertTrue(page.contains("id=\"results-link\""), "plain results are results: " + page);

    HttpResponse<String> results = alice.get("/jobs/" + id + "/results");
    assertEquals(200, results.statusCode());
    assertFalse(results.body().contains("no VaR results"), results.body());
    assertTrue(results.body().contains("99%"), results.body());
  }

  @Test
  void theJobPageOffersToRetryAFailedStageOutAndTheRetryIsInTheTimeline() throws Exception {
    String id = WebTestServer.submitAs(server, WebTestServer.ALICE, job());
    WebVisitor alice = new WebVisitor(server);
    alice.logIn(WebTestServer.ALICE);
    Await.until(
        "job " + id + " failed on its page",
        Duration.ofSeconds(90),
        () -> alice.get("/jobs/" + id).body().contains(">FAILED<"));
    String page = alice.get("/jobs/" + id).body();
    assertTrue(page.contains("id=\"retry-stage-out\""), page);
    assertFalse(page.contains("id=\"hold-job\""), "an ended job is not held: " + page);
    HttpResponse<String> posted =
        alice.post("/jobs/" + id + "/retry-stage-out", "csrf=" + WebVisitor.token(page));
    assertEquals(303 / 100, posted.statusCode() / 100, "a redirect to the job page");
    // the second group's table is still missing: the retry fails again, and says so
    Await.until(
        "the retried stage-out of job " + id + " to end",
        Duration.ofSeconds(90),
        () -> {
          String now = alice.get("/jobs/" + id).body();
          return now.contains("stage-out retried by alice") && now.contains(">FAILED<");
        });
  }
}
