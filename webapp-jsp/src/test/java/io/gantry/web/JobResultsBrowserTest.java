package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/** The sample VaR job from submission to its results page: the table and the P&L plot. */
class JobResultsBrowserTest extends BrowserTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");

  @BeforeAll
  static void needsMcvar() {
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
  }

  /** The example as shipped, pointed at this server's demo SSH port and the built mcvar. */
  private static String sampleJob() throws Exception {
    return Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
        .replace(
            "<gx:RemotePort>2222</gx:RemotePort>",
            "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
        .replace(
            "<gx:Executable>mcvar</gx:Executable>", "<gx:Executable>" + MCVAR + "</gx:Executable>");
  }

  @Test
  void theSampleVarJobsResultsShowItsFiguresAndOneMarkerPerConfidenceLevel() throws Exception {
    String id = WebTestServer.submitAs(server, WebTestServer.ALICE, sampleJob());
    browser.logIn(WebTestServer.ALICE);
    browser.open("/jobs/" + id);
    browser.await("#job-state", 20);
    browser.shot("var-job-started");
    browser.awaitText("#job-state", "SUCCEEDED", 180);
    assertTrue(
        browser.find("#staging").getText().contains("positions.csv.gz"), "the staging manifest");
    assertEquals(
        8,
        browser.findAll("#staging tbody.stage-out tr td:first-child").size(),
        "every result file staged out but the scenario P&L (node_pnl.csv.gz)");
    browser.await("#results-link", 10);
    browser.shot("var-job-succeeded");

    browser.find("#results-link").click();
    browser.await("#var-table", 20);
    List<List<String>> expected = summaryRows(id);
    List<WebElement> rows = browser.findAll("#var-table tbody tr");
    assertEquals(expected.size(), rows.size());
    for (int i = 0; i < rows.size(); i++) {
      List<String> cells =
          new ArrayList<>(
              rows.get(i).findElements(org.openqa.selenium.By.cssSelector("th, td")).stream()
                  .map(WebElement::getText)
                  .toList());
      assertEquals(expected.get(i), cells);
    }
    List<WebElement> markers = browser.findAll("#pnl-plot svg .var-marker");
    assertEquals(expected.size(), markers.size(), "one VaR marker per confidence level");
    for (List<String> level : expected) {
      assertTrue(
          browser.find("#pnl-plot svg").getText().contains("VaR " + level.get(0))
              || markers.stream().anyMatch(m -> m.getText().equals("VaR " + level.get(0))),
          "label VaR " + level.get(0));
    }
    assertEquals("img", browser.find("#pnl-plot svg").getAttribute("role"));
    assertTrue(browser.findAll("#pnl-plot svg rect.bar").size() > 10, "the histogram's bars");
    assertEquals(10, browser.findAll("#contributions tbody tr").size(), "the top 10 contributions");
    browser.shot("results");
    assertFalse(browser.scrollsSideways(), "results page at 1280 px");

    browser.resize(Browser.PHONE);
    browser.open("/jobs/" + id + "/results");
    browser.await("#var-table", 20);
    assertFalse(browser.scrollsSideways(), "results page at 390 px");
    browser.shot("results-phone");
    browser.open("/jobs/" + id);
    browser.await("#job-state", 20);
    assertFalse(browser.scrollsSideways(), "job page with its staging manifest at 390 px");
    browser.shot("var-job-phone");
  }

  @Test
  void aJobWithoutResultsSaysSoOnItsResultsPage() throws Exception {
    String id =
        WebTestServer.submitAs(
            server, WebTestServer.BOB, WebTestServer.echoJob("no-results", "nothing to see"));
    browser.logIn(WebTestServer.BOB);
    browser.open("/jobs/" + id);
    browser.awaitText("#job-state", "SUCCEEDED", 60);
    browser.open("/jobs/" + id + "/results");
    assertTrue(browser.await("#results-problem", 20).getText().contains("no VaR results"));
    browser.shot("no-results");
  }

  /**
   * The job's var_summary CSV as the table should show it: the top node's rows (mcvar 2 reports
   * every node; columns run_id, business_date, node, confidence, var, expected_shortfall,
   * var_stderr, es_stderr, pnl_mean, pnl_stddev, scenarios, ...), by rising confidence, formatted.
   */
  private List<List<String>> summaryRows(String id) throws Exception {
    Path summary;
    try (Stream<Path> files = Files.walk(server.dataDir())) {
      summary =
          files
              .filter(
                  p ->
                      p.endsWith(Path.of("results", "var_summary.csv.gz"))
                          && p.toString().contains(id))
              .findFirst()
              .orElseThrow();
    }
    List<List<String>> rows = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(summary)), StandardCharsets.UTF_8))) {
      in.readLine();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] f = line.split(",", -1);
        if (f[2].contains("/")) {
          continue; // a node below the top
        }
        rows.add(
            List.of(
                new java.math.BigDecimal(f[3])
                        .movePointRight(2)
                        .stripTrailingZeros()
                        .toPlainString()
                    + "%",
                money(f[4]),
                money(f[5]),
                money(f[8]),
                money(f[9]),
                String.format(Locale.ENGLISH, "%,d", Long.parseLong(f[10]))));
      }
    }
    rows.sort(java.util.Comparator.comparing(r -> Double.parseDouble(r.get(0).replace("%", ""))));
    return rows;
  }

  private static String money(String value) {
    return String.format(Locale.ENGLISH, "%,.2f", Double.parseDouble(value));
  }
}
