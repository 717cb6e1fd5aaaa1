package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The job page: status, timeline, output, cancel and kill, another user's job; the live job list.
 */
class JobPagesBrowserTest extends BrowserTest {

  /** A POSIX job that sleeps {@code seconds}, as JSDL. */
  static String sleepJob(String name, int seconds) {
    return WebTestServer.echoJob(name, String.valueOf(seconds)).replace("/bin/echo", "/bin/sleep");
  }

  @Test
  void anEchoJobsPageShowsItSucceededWithTimelineOutputAndDefinition() throws Exception {
    String id =
        WebTestServer.submitAs(
            server,
            WebTestServer.ALICE,
            WebTestServer.echoJob("echo-page", "hello from the job page"));
    browser.logIn(WebTestServer.ALICE);
    browser.open("/jobs/" + id);
    browser.awaitText("#job-state", "SUCCEEDED", 60);
    browser.awaitText("#stdout", "hello from the job page", 20);
    assertEquals("echo-page", browser.find("#job-name").getText());
    assertEquals(id, browser.find("#job-id").getText());
    assertEquals(WebTestServer.ALICE, browser.find("#job-owner").getText());
    assertEquals("0", browser.find("#job-exit-code").getText());
    String timeline = browser.find("#timeline").getText();
    for (String state : new String[] {"QUEUED", "RUNNING", "SUCCEEDED"}) {
      assertTrue(timeline.contains(state), "timeline has " + state + ": " + timeline);
    }
    assertTrue(
        browser.find("#job-live").getAttribute("data-final") != null,
        "a final state stops the refresh");
    assertTrue(
        browser.findAll("#cancel-job, #kill-job").isEmpty(), "no cancel or kill once it ended");
    assertTrue(browser.findAll("#results-link").isEmpty(), "no VaR results for an echo job");
    browser.shot("echo-job-succeeded");

    browser.find("#definition-link").click();
    browser.awaitText("#definition", "/bin/echo", 20);
    assertTrue(
        browser.find("#definition").getText().contains("<jsdl:JobName>echo-page</jsdl:JobName>"),
        "shown as escaped XML");
    browser.shot("definition");

    browser.resize(Browser.PHONE);
    browser.open("/jobs/" + id);
    browser.await("#job-state", 20);
    assertFalse(browser.scrollsSideways(), "job page at 390 px");
    browser.shot("echo-job-phone");
  }

  @Test
  void aQueuedJobIsCancelledAndARunningOneKilledFromTheirPages() throws Exception {
    // the server has 2 slots: two sleepers fill them and the third job waits
    String first = WebTestServer.submitAs(server, WebTestServer.ALICE, sleepJob("sleeper-1", 60));
    String second = WebTestServer.submitAs(server, WebTestServer.ALICE, sleepJob("sleeper-2", 60));
    String queued = WebTestServer.submitAs(server, WebTestServer.ALICE, sleepJob("waiting", 60));
    browser.logIn(WebTestServer.ALICE);

    browser.open("/jobs/" + queued);
    String waiting = browser.await("#job-state", 20).getText();
    // its (empty) stage-in is done at once; then it waits for a slot
    assertTrue(
        waiting.equals("QUEUED") || waiting.equals("STAGED"), "waits for a slot: " + waiting);
    browser.shot("waiting-for-a-slot");
    clickAndConfirm("#cancel-job");
    browser.awaitText("#action-message", "Cancelled", 30);
    assertEquals("CANCELLED", browser.find("#job-state").getText());
    assertTrue(browser.find("#timeline").getText().contains("CANCELLED"));
    browser.shot("cancelled");

    for (String id : new String[] {first, second}) {
      browser.open("/jobs/" + id);
      browser.awaitText("#job-state", "RUNNING", 30);
      browser.await("#kill-job", 10);
      browser.shot("running-" + id.substring(0, 6));
      clickAndConfirm("#kill-job");
      browser.awaitText("#action-message", "Killed", 60);
      browser.awaitText("#job-state", "KILLED", 30);
      browser.shot("killed-" + id.substring(0, 6));
    }

    // a second cancel of the ended job: a message on the job page, not an error page
    browser.open("/jobs/" + queued);
    browser.await("#job-state", 20);
    assertEquals(
        200L, post("/jobs/" + queued + "/cancel"), "answered with a redirect to the job page");
    browser.script(
        "const f = document.createElement('form'); f.method = 'post';"
            + " f.action = '/jobs/"
            + queued
            + "/cancel'; const t = document.createElement('input');"
            + " t.type = 'hidden'; t.name = 'csrf'; t.value = document.querySelector('meta[name=csrf-token]').content;"
            + " f.appendChild(t); document.body.appendChild(f); f.submit();");
    browser.awaitText("#action-message", "already ended", 20);
    assertTrue(browser.find("#action-message").getAttribute("class").contains("error"));
    browser.shot("cancel-refused");
  }

  @Test
  void bobCannotSeeOrStopAlicesJobButTheAdministratorCan() throws Exception {
    String id = WebTestServer.submitAs(server, WebTestServer.ALICE, sleepJob("alices-sleeper", 60));
    browser.logIn(WebTestServer.BOB);
    String unknown = "a".repeat(32);
    browser.open("/jobs/" + unknown);
    String unknownMessage = browser.await("#error-message", 20).getText();
    browser.shot("unknown-job");
    for (String page : new String[] {"", "/results", "/definition"}) {
      browser.open("/jobs/" + id + page);
      assertEquals(
          unknownMessage.replace(unknown, id), browser.await("#error-message", 20).getText(), page);
      assertEquals(404L, get("/jobs/" + id + page), page);
      assertEquals(404L, get("/jobs/" + unknown + page), page);
    }
    browser.shot("alices-job-not-found");
    assertEquals(404L, post("/jobs/" + id + "/cancel"), "cancel with bob's valid token");
    assertEquals(404L, post("/jobs/" + id + "/kill"), "kill with bob's valid token");
    assertEquals(404L, post("/jobs/" + unknown + "/kill"));
    browser.logOut();

    browser.logIn(WebTestServer.ADMIN);
    browser.open("/jobs/" + id);
    String state = browser.await("#job-state", 20).getText();
    assertTrue(
        state.equals("QUEUED")
            || state.equals("STAGING_IN")
            || state.equals("STAGED")
            || state.equals("RUNNING"),
        "bob changed nothing: " + state);
    assertFalse(browser.find("#timeline").getText().contains("bob"));
    assertEquals(WebTestServer.ALICE, browser.find("#job-owner").getText());
    browser.awaitText("#job-state", "RUNNING", 30);
    browser.shot("admin-sees-alices-job");
    clickAndConfirm("#kill-job");
    browser.awaitText("#job-state", "KILLED", 60);
    browser.shot("admin-killed-it");
  }

  @Test
  void theJobListShowsANewJobWithoutReloadAndFiltersByState() throws Exception {
    browser.logIn(WebTestServer.BOB);
    browser.open("/jobs");
    browser.await("#job-list", 20);
    browser.shot("list-before");
    String id =
        WebTestServer.submitAs(
            server, WebTestServer.BOB, WebTestServer.echoJob("appears-live", "x"));
    browser.await("tr[data-job-id='" + id + "']", 30);
    new WebDriverWait(browser.driver(), Duration.ofSeconds(60))
        .until(
            d ->
                d.findElement(By.cssSelector("tr[data-job-id='" + id + "'] .state"))
                    .getText()
                    .equals("SUCCEEDED"));
    browser.shot("list-after-submit");

    new Select(browser.find("#state-filter")).selectByValue("SUCCEEDED");
    browser.find(".filters button[type=submit]").click();
    browser.await("tr[data-job-id='" + id + "']", 20);
    assertTrue(browser.driver().getCurrentUrl().contains("state=SUCCEEDED"));
    browser.findAll("#job-list .state").forEach(s -> assertEquals("SUCCEEDED", s.getText()));
    browser.shot("filter-succeeded");

    browser.open("/jobs?state=KILLED");
    browser.await("#job-list", 20);
    assertTrue(browser.findAll("tr[data-job-id='" + id + "']").isEmpty(), "not a killed job");
    browser.shot("filter-killed");
  }

  /** Clicks a button whose form asks first (data-confirm) and accepts the question. */
  private void clickAndConfirm(String css) {
    for (int attempt = 0; ; attempt++) {
      try {
        browser.find(css).click(); // the live part of the page may have been refreshed meanwhile
        break;
      } catch (StaleElementReferenceException e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
    new WebDriverWait(browser.driver(), Duration.ofSeconds(10))
        .until(ExpectedConditions.alertIsPresent())
        .accept();
  }

  private long get(String path) {
    return (Long)
        ((JavascriptExecutor) browser.driver())
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "fetch(arguments[0], {credentials: 'same-origin'}).then(r => done(r.status));",
                path);
  }

  /** POSTs with the session's valid CSRF token; the status after redirects. */
  private long post(String path) {
    return (Long)
        ((JavascriptExecutor) browser.driver())
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "const token = document.querySelector('meta[name=csrf-token]').content;"
                    + "fetch(arguments[0], {method: 'POST', credentials: 'same-origin',"
                    + " headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
                    + " body: 'csrf=' + encodeURIComponent(token)}).then(r => done(r.status));",
                path);
  }
}
