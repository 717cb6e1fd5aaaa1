package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.JsdlWriter;
import io.gantry.jsdl.ParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The job wizard in a browser: the sample VaR job typed in and run, errors, upload, drafts,
 * passwords.
 */
class WizardBrowserTest extends BrowserTest {
  static final Path VAR_JOB = WizardJsdlRoundTripTest.EXAMPLES.resolve("var-job.jsdl");
  static final Path MCVAR =
      Path.of("..", "node-programs", "build", "mcvar").toAbsolutePath().normalize();
  private static final Set<String> CHOICES =
      Set.of(
          "dsKind",
          "creationFlag",
          "inputCompression",
          "outputCompression",
          "compression",
          "direction",
          "protocol",
          "authKind");
  private static final String CLEAR_PASSWORD = "Tr0ub4dor&3-in-clear";

  /**
   * var-job.jsdl as this test server runs it: its demo SSH port and the built mcvar, and as a plain
   * job (its template parameters' defaults, business date 2026-11-20 and node BANK, written into
   * its SQL and name), to be typed in without a parameters step.
   */
  static String varJobHere() throws Exception {
    return Files.readString(VAR_JOB)
        .replaceAll("(?s)<gx:Parameters>.*?</gx:Parameters>", "")
        .replace("${business_date}", "DATE '2026-11-20'")
        .replace("${portfolio}", "'BANK'")
        .replace("var-'BANK'-daily", "var-BANK-daily")
        .replace("under 'BANK' on DATE '2026-11-20'", "under BANK on 2026-11-20")
        .replace(
            "<gx:RemotePort>2222</gx:RemotePort>",
            "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
        .replace(
            "<gx:Executable>mcvar</gx:Executable>", "<gx:Executable>" + MCVAR + "</gx:Executable>");
  }

  @Test
  void theSampleVarJobIsTypedInReviewedSubmittedAndSucceeds() throws Exception {
    WizardJob want =
        WizardJsdlImporter.read(
                varJobHere().getBytes(java.nio.charset.StandardCharsets.UTF_8), new JsdlParser())
            .job();
    browser.logIn(WebTestServer.ALICE);
    browser.open("/wizard");
    browser.await("#f-name", 20);
    for (String field : WizardStep.IDENTIFICATION.fields) {
      type("f-" + field, want.value(field));
    }
    browser.shot("identification");
    next("#f-executable");
    for (String field : WizardStep.APPLICATION.fields) {
      type("f-" + field, want.value(field));
    }
    browser.shot("application");
    next("#f-wallTime");
    type("f-wallTime", want.value("wallTime"));
    browser.shot("resources");
    next("#pre-add-sql");
    fillStages("pre", want.getPre());
    browser.shot("pre-staging");
    next("#post-add-sql");
    fillStages("post", want.getPost());
    browser.shot("post-staging");
    next("#param-add");
    assertEquals(
        "No parameters: the job is submitted as written.",
        browser.find("#no-parameters").getText());
    next("#review-verdict");
    assertTrue(browser.findAll("#parameter-values").isEmpty(), "no value fields for a plain job");
    assertEquals("The server finds this job valid.", browser.find("#review-verdict").getText());
    browser.shot("review");

    ParseResult built = new JsdlParser().parse(browser.find("#jsdl-text").getText());
    assertTrue(built.isValid(), built.report()::toString);
    assertEquals(
        JsdlWriter.write(new JsdlParser().parse(varJobHere()).validJob()),
        JsdlWriter.write(built.validJob()),
        "the wizard built exactly the sample job");

    browser.find("#submit-job").click();
    new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
        .until(ExpectedConditions.urlMatches("/jobs/[a-z2-7]{32}$"));
    String id = browser.driver().getCurrentUrl().replaceFirst(".*/jobs/", "");
    browser.await("#job-state", 20);
    browser.shot("job-page-after-submit");
    // the job page follows the job by itself (live refresh), no reload
    browser.awaitText("#job-state", "SUCCEEDED", 240);
    browser.shot("job-succeeded");
    browser.await("#results-link", 10).click();
    browser.await("#var-table", 20);
    assertEquals(2, browser.findAll("#var-table tbody tr").size(), "VaR at 95% and 99%");
    assertEquals(
        2, browser.findAll("#pnl-plot svg .var-marker").size(), "one marker per VaR level");
    browser.shot("var-results");
    browser.open("/jobs");
    assertEquals("SUCCEEDED", browser.await("tr[data-job-id='" + id + "'] .state", 20).getText());
  }

  @Test
  void aNewJobOffersTheNamedApplicationMcvarWithAVersionTheServerValidates() throws Exception {
    browser.logIn(WebTestServer.BOB);
    browser.open("/wizard");
    browser.await("#f-name", 20).sendKeys("var-named", Keys.ENTER);
    assertEquals("mcvar", browser.await("#f-applicationName", 20).getAttribute("value"));
    assertEquals("", browser.find("#f-executable").getAttribute("value"));
    type("f-applicationVersion", "1.0");
    browser.shot("named-application");
    browser.clickAndAwaitNewPage("#nav-review");
    assertEquals(
        "The server finds this job valid.", browser.await("#review-verdict", 20).getText());
    String jsdl = browser.find("#jsdl-text").getText();
    assertTrue(jsdl.contains("<jsdl:ApplicationName>mcvar</jsdl:ApplicationName>"), jsdl);
    assertTrue(jsdl.contains("<jsdl:ApplicationVersion>1.0</jsdl:ApplicationVersion>"), jsdl);
    assertFalse(jsdl.contains("MpirunApplication"), jsdl);
  }

  @Test
  void wrongInputIsShownNextToItsField() throws Exception {
    browser.logIn(WebTestServer.BOB);
    browser.open("/wizard");
    browser.await("#f-name", 20).sendKeys("bad-update", Keys.ENTER); // Enter means Next
    browser.await("#f-processes", 20);
    type("f-executable", "/bin/true");
    type("f-processes", "0");
    browser.clickAndAwaitNewPage("#next");
    assertTrue(browser.await("#f-processes-error", 20).getText().contains("at least 1"));
    assertEquals("true", browser.find("#f-processes").getAttribute("aria-invalid"));
    assertTrue(browser.find("#nav-application").getAttribute("class").contains("has-errors"));
    browser.shot("zero-processes");
    type("f-processes", "1");
    next("#f-wallTime");
    type("f-wallTime", "soon");
    browser.clickAndAwaitNewPage("#next");
    assertTrue(browser.await("#f-wallTime-error", 20).getText().contains("whole number"));
    type("f-wallTime", "60");
    next("#pre-add-sql");
    browser.clickAndAwaitNewPage("#pre-add-sql");
    browser.await("#pre-0-statement", 20);
    type("pre-0-dataSourceRef", "demo-market");
    type("pre-0-statement", "UPDATE position SET quantity = 0");
    type("pre-0-outputFile", "positions.csv");
    browser.clickAndAwaitNewPage("#nav-review");
    assertTrue(browser.await("#review-verdict", 20).getText().contains("problems"));
    assertTrue(browser.find("#validation-report").getText().contains("SQLStatement"));
    assertTrue(browser.find("#nav-pre-staging").getAttribute("class").contains("has-errors"));
    assertFalse(browser.find("#nav-identification").getAttribute("class").contains("has-errors"));
    browser.shot("review-with-problems");
    browser.clickAndAwaitNewPage("#nav-pre-staging");
    WebElement problem = browser.await("#pre-0-statement-error", 20);
    assertFalse(problem.getText().isBlank());
    assertTrue(problem.getText().contains("SELECT"), problem.getText());
    browser.shot("statement-problem-at-its-field");
  }

  @Test
  void anUploadedJobIsEditedWithAnEncryptedPasswordSavedAsDraftReopenedAndDownloaded()
      throws Exception {
    browser.logIn(WebTestServer.ALICE);
    browser.open("/wizard");
    Path broken =
        Files.writeString(
            dir.resolve("broken.jsdl"),
            "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\">\n<oops>");
    upload(broken);
    assertTrue(
        browser.await("#upload-problems", 20).getText().contains("line "), "located problems");
    browser.shot("upload-invalid");
    upload(WizardJsdlRoundTripTest.EXAMPLES.resolve("posix-staging.jsdl"));
    assertTrue(browser.await("#upload-problems", 20).getText().contains("POSIXApplication"));
    browser.shot("upload-unsupported");

    upload(VAR_JOB);
    assertTrue(browser.await("#wizard-notice", 20).getText().contains("var-job.jsdl"));
    assertEquals("var-${portfolio}-daily", browser.find("#f-name").getAttribute("value"));
    assertEquals("market-risk", browser.find("#f-project").getAttribute("value"));
    browser.shot("uploaded");
    browser.clickAndAwaitNewPage("#nav-pre-staging");
    browser.await("#pre-5-statement", 20);
    assertEquals(6, browser.findAll("fieldset.stage").size());
    assertEquals("demo-remote", browser.find("#pre-0-identityRef").getAttribute("value"));
    assertEquals("factor-ids.csv", browser.find("#pre-4-inputFile").getAttribute("value"));
    new Select(browser.find("#pre-1-dsKind")).selectByValue("inline");
    type("pre-1-jdbcUrl", "jdbc:h2:mem:elsewhere");
    type("pre-1-dbUser", "reader");
    type("pre-1-dbPassword", CLEAR_PASSWORD);
    browser.clickAndAwaitNewPage("#pre-0-down"); // saves the step, and moves the scp stage down
    browser.await("#pre-1-identityRef", 20);
    assertEquals(
        "demo-remote", browser.find("#pre-1-identityRef").getAttribute("value"), "moved down");
    assertEquals("set (encrypted)", browser.find("#pre-0-dbPassword-state").getText());
    assertEquals("", browser.find("#pre-0-dbPassword").getAttribute("value"), "never echoed");
    assertFalse(browser.driver().getPageSource().contains(CLEAR_PASSWORD));
    browser.shot("password-set");
    browser.clickAndAwaitNewPage("#pre-1-up");
    browser.await("#pre-0-identityRef", 20);

    browser.clickAndAwaitNewPage("#nav-review");
    assertTrue(browser.await("#jsdl-text", 20).getText().contains("ENC(RSA-OAEP-256-v2:"));
    type("f-draftName", "var-with-password");
    browser.clickAndAwaitNewPage("#save-draft");
    assertEquals(
        "Saved as draft var-with-password.", browser.await("#wizard-notice", 20).getText());
    assertFalse(browser.driver().getPageSource().contains(CLEAR_PASSWORD));
    browser.shot("draft-saved");
    String download = fetch("/wizard/download");
    assertTrue(download.contains("<gx:Password>ENC(RSA-OAEP-256-v2:"), download);
    assertFalse(download.contains(CLEAR_PASSWORD));

    browser.open("/drafts");
    browser.await("#open-var-with-password", 20);
    browser.shot("drafts");
    String draft = fetch("/drafts/download?name=var-with-password");
    assertTrue(draft.contains("ENC(RSA-OAEP-256-v2:") && !draft.contains(CLEAR_PASSWORD));
    assertTrue(
        new JsdlParser()
            .parse(draft).report().problems().stream().noneMatch(p -> p.message().contains("XML")));
    browser.clickAndAwaitNewPage("#open-var-with-password");
    assertEquals("Opened draft var-with-password.", browser.await("#wizard-notice", 20).getText());
    assertEquals("var-${portfolio}-daily", browser.find("#f-name").getAttribute("value"));
    browser.shot("draft-reopened");

    browser.open("/drafts");
    browser.await("#delete-var-with-password", 20).click();
    browser.driver().switchTo().alert().accept();
    assertTrue(browser.await("#drafts-notice", 20).getText().contains("Deleted"));
    assertTrue(browser.findAll("#open-var-with-password").isEmpty());
    browser.shot("draft-deleted");
  }

  @Test
  void everyStepFitsAPhone() throws Exception {
    browser.logIn(WebTestServer.ALICE);
    browser.resize(Browser.PHONE);
    browser.open("/wizard");
    upload(VAR_JOB);
    browser.await("#wizard-notice", 20);
    for (WizardStep step : WizardStep.values()) {
      browser.open("/wizard?step=" + step.getSlug());
      browser.await("#nav-" + step.getSlug(), 20);
      assertFalse(browser.scrollsSideways(), step.getSlug() + " at 390 px");
      browser.shot("phone-" + step.getSlug());
    }
    browser.open("/drafts");
    browser.await("h1", 20);
    assertFalse(browser.scrollsSideways(), "drafts at 390 px");
  }

  private void upload(Path file) {
    browser.find("#upload-file").sendKeys(file.toAbsolutePath().normalize().toString());
    browser.clickAndAwaitNewPage("#upload");
  }

  private String fetch(String path) {
    return (String)
        ((org.openqa.selenium.JavascriptExecutor) browser.driver())
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text()).then(done);",
                path);
  }

  private void next(String awaitCss) {
    browser.clickAndAwaitNewPage("#next");
    browser.await(awaitCss, 20);
  }

  private void type(String id, String text) {
    WebElement field = browser.find("#" + id);
    field.clear();
    if (!text.isEmpty()) {
      field.sendKeys(text);
    }
  }

  /** Adds the stages (each add saves the form and reloads), then types every field of each. */
  private void fillStages(String side, List<WizardStage> stages) {
    for (int i = 0; i < stages.size(); i++) {
      browser.clickAndAwaitNewPage(
          "#" + side + "-add-" + (stages.get(i).kind() == WizardStage.Kind.SCP ? "scp" : "sql"));
      browser.await("#" + side + "-stage-" + i, 20);
    }
    for (int i = 0; i < stages.size(); i++) {
      WizardStage stage = stages.get(i);
      for (String field : WizardForm.fieldsOf(stage.kind())) {
        String id = side + "-" + i + "-" + field;
        if (CHOICES.contains(field)) {
          new Select(browser.find("#" + id)).selectByValue(stage.value(field));
        } else {
          type(id, stage.value(field));
        }
      }
    }
  }
}
