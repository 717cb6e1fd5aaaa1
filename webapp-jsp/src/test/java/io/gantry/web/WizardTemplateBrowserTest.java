package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A job template in the wizard, in a browser: the sample template uploaded, its parameters shown
 * and edited, a value field per parameter on the review, values checked by the server's validateJob
 * and sent with submitJob, the job page showing them and the job computing the sample's figures.
 */
class WizardTemplateBrowserTest extends BrowserTest {
  static final Path TEMPLATE = WizardJsdlRoundTripTest.EXAMPLES.resolve("var-job-named.jsdl");

  @Test
  void theSampleTemplateIsUploadedFilledSubmittedAndComputesTheSamplesFigures() throws Exception {
    // the described sample (its defaults) for the figures the template must give for BANK
    String sample =
        WebTestServer.submitAs(server, WebTestServer.ALICE, WizardBrowserTest.varJobHere());
    browser.logIn(WebTestServer.ALICE);
    browser.open("/wizard");
    upload(TEMPLATE);
    assertTrue(browser.await("#wizard-notice", 20).getText().contains("var-job-named.jsdl"));
    assertEquals("var-${portfolio}-daily-named", browser.find("#f-name").getAttribute("value"));
    browser.shot("template-uploaded");

    browser.clickAndAwaitNewPage("#nav-parameters");
    browser.await("#parameter-1", 20);
    assertEquals("business_date", browser.find("#param-0-name").getAttribute("value"));
    assertEquals(
        "date",
        new Select(browser.find("#param-0-type")).getFirstSelectedOption().getAttribute("value"));
    assertEquals("2026-11-20", browser.find("#param-0-default").getAttribute("value"));
    assertEquals("portfolio", browser.find("#param-1-name").getAttribute("value"));
    browser.shot("parameters-step");
    browser.clickAndAwaitNewPage("#nav-pre-staging");
    assertTrue(
        browser.await("#pre-0-statement", 20).getAttribute("value").contains("= ${portfolio}"),
        "the reference as written");

    browser.clickAndAwaitNewPage("#nav-review");
    WebElement portfolio = browser.await("#v-portfolio", 20);
    assertEquals("BANK", portfolio.getAttribute("value"), "the default, pre-filled");
    assertEquals("text", portfolio.getAttribute("type"));
    WebElement date = browser.find("#v-business_date");
    assertEquals("date", date.getAttribute("type"));
    assertEquals("2026-11-20", date.getAttribute("value"));
    assertTrue(
        browser
            .find("#v-business_date-hint")
            .getText()
            .contains("the business date: its book, its closing levels and the history up to it"),
        "the description as help");
    type("v-portfolio", "BANK");
    browser.clickAndAwaitNewPage("#check-values");
    assertEquals(
        "The server finds this job valid.", browser.await("#review-verdict", 20).getText());
    String jsdl = browser.find("#jsdl-text").getText();
    assertTrue(jsdl.contains("a.ancestor = ${portfolio}"), "values never enter the document");
    assertTrue(jsdl.contains("name=\"portfolio\""), jsdl);
    browser.shot("review-with-values");

    browser.find("#submit-job").click();
    new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
        .until(ExpectedConditions.urlMatches("/jobs/[a-z2-7]{32}$"));
    String id = browser.driver().getCurrentUrl().replaceFirst(".*/jobs/", "");
    assertEquals(
        List.of("business_date = 2026-11-20", "portfolio = BANK"),
        browser.findAll("#job-parameters li").stream().map(WebElement::getText).toList());
    assertTrue(browser.find("h1").getText().contains("var-BANK-daily-named"));
    browser.awaitText("#job-state", "SUCCEEDED", 240);
    browser.shot("template-job-succeeded");
    List<List<String>> figures = varTable(id);
    assertEquals(2, figures.size(), "VaR at 95% and 99%");
    browser.shot("template-job-results");
    browser.open("/jobs/" + sample);
    browser.awaitText("#job-state", "SUCCEEDED", 240);
    assertEquals(varTable(sample), figures, "the figures of the sample job");
  }

  @Test
  void aMissingValueAndAWrongDeclarationAreShownNextToTheirFields() throws Exception {
    browser.logIn(WebTestServer.BOB);
    browser.open("/wizard");
    upload(TEMPLATE);
    browser.clickAndAwaitNewPage("#nav-parameters");
    // portfolio loses its default: a value is then required at submission
    type("param-1-default", "");
    browser.clickAndAwaitNewPage("#param-add");
    browser.await("#param-2-name", 20);
    type("param-2-name", "paths");
    new Select(browser.find("#param-2-type")).selectByValue("integer");
    type("param-2-default", "many");
    browser.clickAndAwaitNewPage("#next");
    assertTrue(
        browser.await("#param-2-default-error", 20).getText().contains("is not a whole number"),
        "the default checked against its type, as the parser does");
    assertEquals("true", browser.find("#param-2-default").getAttribute("aria-invalid"));
    assertTrue(browser.find("#nav-parameters").getAttribute("class").contains("has-errors"));
    browser.shot("wrong-default");
    browser.clickAndAwaitNewPage("#param-2-remove");
    browser.await("#parameter-1", 20);
    assertTrue(browser.findAll("#parameter-2").isEmpty());

    browser.clickAndAwaitNewPage("#next");
    WebElement portfolio = browser.await("#v-portfolio", 20);
    assertEquals("", portfolio.getAttribute("value"), "no default to pre-fill");
    assertTrue(browser.find("#v-portfolio-hint").getText().contains("a value is required"));
    assertTrue(
        browser.find("#v-portfolio-error").getText().contains("parameter portfolio has no value"),
        "validateJob's message next to the field");
    browser.find("#submit-job").click();
    assertTrue(
        browser.await("#wizard-notice", 20).getText().startsWith("The job was not submitted"));
    assertTrue(
        browser
            .find("#v-portfolio-error")
            .getText()
            .contains("parameter portfolio has no value and no default"),
        "submitJob's message next to the field");
    assertEquals("true", browser.find("#v-portfolio").getAttribute("aria-invalid"));
    browser.shot("missing-value");

    // a browser without a date picker (or a client of its own) sends what was typed; the server
    // checks it against the parameter's type
    type("v-portfolio", "DESK-2");
    browser.script("document.getElementById('v-business_date').type = 'text';");
    type("v-business_date", "notadate");
    browser.clickAndAwaitNewPage("#check-values");
    assertTrue(
        browser
            .await("#v-business_date-error", 20)
            .getText()
            .contains("'notadate' is not an ISO date"),
        () -> browser.find("#v-business_date-error").getText());
    assertTrue(browser.findAll("#v-portfolio-error").isEmpty(), "DESK-2 is a value");
    assertTrue(browser.find("#review-verdict").getText().contains("problems"));
    browser.shot("mistyped-value");
    browser.find("#submit-job").click();
    assertTrue(
        browser.await("#wizard-notice", 20).getText().startsWith("The job was not submitted"));
    assertTrue(browser.find("#v-business_date-error").getText().contains("'notadate'"));
    assertEquals(
        "notadate", browser.find("#v-business_date").getAttribute("value"), "kept as typed");
  }

  @Test
  void aTemplateSavedAsDraftIsReopenedWithItsParameters() throws Exception {
    browser.logIn(WebTestServer.BOB);
    browser.open("/wizard");
    upload(TEMPLATE);
    browser.clickAndAwaitNewPage("#nav-review");
    browser.await("#v-portfolio", 20);
    type("f-draftName", "var-template");
    browser.clickAndAwaitNewPage("#save-draft");
    assertEquals("Saved as draft var-template.", browser.await("#wizard-notice", 20).getText());
    browser.open("/drafts");
    browser.await("#open-var-template", 20);
    browser.clickAndAwaitNewPage("#open-var-template");
    assertEquals("Opened draft var-template.", browser.await("#wizard-notice", 20).getText());
    assertEquals("var-${portfolio}-daily-named", browser.find("#f-name").getAttribute("value"));
    browser.clickAndAwaitNewPage("#nav-parameters");
    browser.await("#parameter-1", 20);
    assertEquals(2, browser.findAll("fieldset.stage").size());
    assertEquals("portfolio", browser.find("#param-1-name").getAttribute("value"));
    browser.resize(Browser.PHONE);
    browser.open("/wizard?step=review");
    browser.await("#v-portfolio", 20);
    assertFalse(browser.scrollsSideways(), "the value fields at 390 px");
    browser.shot("phone-review-values");
  }

  /** The results page's VaR table, cell by cell. */
  private List<List<String>> varTable(String id) {
    browser.open("/jobs/" + id + "/results");
    browser.await("#var-table", 20);
    return browser.findAll("#var-table tbody tr").stream()
        .map(
            row ->
                row.findElements(By.cssSelector("th, td")).stream()
                    .map(WebElement::getText)
                    .toList())
        .toList();
  }

  private void upload(Path file) {
    browser.await("#upload-file", 20).sendKeys(file.toAbsolutePath().normalize().toString());
    browser.clickAndAwaitNewPage("#upload");
  }

  private void type(String id, String text) {
    WebElement field = browser.find("#" + id);
    field.clear();
    if (!text.isEmpty()) {
      field.sendKeys(text);
    }
  }
}
