package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job page's template values and Resubmit button, and the schedules page (add from an upload,
 * pause, remove; one user's schedules hidden from another), through HTTP as a browser sends it.
 */
class SchedulesAndResubmitWebTest {
  @TempDir static Path dir;
  static GantryTestServer server;

  static final String TEMPLATE =
      "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
          + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
          + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription>"
          + "<jsdl:JobIdentification><jsdl:JobName>greet-${whom}</jsdl:JobName></jsdl:JobIdentification>"
          + "<jsdl:Application><posix:POSIXApplication><posix:Executable>/bin/echo</posix:Executable>"
          + "<posix:Argument>hello ${whom}</posix:Argument></posix:POSIXApplication></jsdl:Application>"
          + "<gx:Parameters><gx:Parameter name=\"whom\" default=\"world\"/></gx:Parameters>"
          + "</jsdl:JobDescription></jsdl:JobDefinition>";

  @BeforeAll
  static void startServer() throws Exception {
    server = WebTestServer.start(dir, Map.of("demo.enabled", "false"));
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static WebVisitor as(String user) throws Exception {
    WebVisitor visitor = new WebVisitor(server);
    assertEquals(302, visitor.logIn(user).statusCode());
    return visitor;
  }

  private static String finished(WebVisitor visitor, String id) {
    return Await.value(
        "job " + id + "'s page to say SUCCEEDED",
        Duration.ofSeconds(60),
        () -> visitor.get("/jobs/" + id).body(),
        page -> page.contains(">SUCCEEDED<"));
  }

  @Test
  void theJobPageShowsTheValuesAndResubmitOpensTheNewJobLinkedToTheOriginal() throws Exception {
    WebVisitor alice = as(WebTestServer.ALICE);
    String id = WebTestServer.submitAs(server, WebTestServer.ALICE, TEMPLATE);
    String page = finished(alice, id);
    assertTrue(page.contains("<code>whom = world</code>"), page);
    assertTrue(page.contains("id=\"resubmit-job\""), page);

    HttpResponse<String> resubmit =
        alice.post("/jobs/" + id + "/resubmit", "csrf=" + WebVisitor.token(page));
    assertEquals(302, resubmit.statusCode(), resubmit.body());
    String location = resubmit.headers().firstValue("Location").orElseThrow();
    Matcher newId = Pattern.compile("/jobs/([a-z2-7]{32})$").matcher(location);
    assertTrue(newId.find(), location);
    assertFalse(newId.group(1).equals(id));
    String newPage = alice.get("/jobs/" + newId.group(1)).body();
    assertTrue(newPage.contains("Resubmitted job " + id + " as this new job."), newPage);
    assertTrue(newPage.contains("id=\"resubmitted-from\" href=\"/jobs/" + id + "\""), newPage);
    finished(alice, newId.group(1));
    // the job list tells the runs of one template apart by the values each was filled with
    assertTrue(
        alice.get("/jobs").body().contains("<code class=\"values\">whom=world</code>"),
        "the jobs page shows each run's values");

    WebVisitor bob = as(WebTestServer.BOB);
    String bobsPage = bob.get("/jobs").body();
    HttpResponse<String> foreign =
        bob.post("/jobs/" + id + "/resubmit", "csrf=" + WebVisitor.token(bobsPage));
    assertEquals(404, foreign.statusCode(), "another user's job is not found, also to resubmit");
  }

  @Test
  void schedulesAreAddedFromAFilePausedAndRemovedByTheirOwnerOnly() throws Exception {
    WebVisitor alice = as(WebTestServer.ALICE);
    String page = alice.get("/schedules").body();
    assertTrue(page.contains("id=\"add-from-upload\""), page);
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("name", "web-nightly");
    fields.put("cron", "0 6 * * 1-5");
    fields.put("timeZone", "Europe/London");
    fields.put("missed", "skip");
    fields.put("values", "whom=${schedule.date}\n");
    HttpResponse<String> added = upload(alice, WebVisitor.token(page), fields, TEMPLATE);
    assertEquals(302, added.statusCode(), added.body());
    page = alice.get("/schedules").body();
    assertTrue(page.contains("Added schedule web-nightly"), page);
    assertTrue(page.contains("data-schedule=\"web-nightly\""), page);
    assertTrue(page.contains("<code>0 6 * * 1-5</code>"), page);
    assertTrue(page.contains("whom=${schedule.date}"), page);
    String id = scheduleId(page);

    WebVisitor bob = as(WebTestServer.BOB);
    String bobsPage = bob.get("/schedules").body();
    assertFalse(bobsPage.contains("web-nightly"), "bob does not see alice's schedule");
    bob.post("/schedules/remove", "csrf=" + WebVisitor.token(bobsPage) + "&id=" + id);
    assertTrue(
        bob.get("/schedules").body().contains("no schedule " + id + " for user bob"),
        "bob is told there is no such schedule of his");
    assertTrue(alice.get("/schedules").body().contains("data-schedule=\"web-nightly\""));
    assertTrue(
        as(WebTestServer.ADMIN).get("/schedules").body().contains("data-schedule=\"web-nightly\""),
        "an administrator sees every user's schedules");

    alice.post("/schedules/pause", "csrf=" + WebVisitor.token(page) + "&id=" + id);
    page = alice.get("/schedules").body();
    assertTrue(page.contains("Paused schedule web-nightly."), page);
    assertTrue(page.contains("action=\"/schedules/resume\""), page);

    HttpResponse<String> invalid =
        upload(
            alice, WebVisitor.token(page), Map.of("name", "bad", "cron", "0 25 * * *"), TEMPLATE);
    assertEquals(302, invalid.statusCode());
    page = alice.get("/schedules").body();
    assertTrue(page.contains("argument cron"), page);

    alice.post("/schedules/remove", "csrf=" + WebVisitor.token(page) + "&id=" + id);
    page = alice.get("/schedules").body();
    assertTrue(page.contains("Removed schedule web-nightly."), page);
    assertFalse(page.contains("data-schedule=\"web-nightly\""), page);
  }

  private static String scheduleId(String page) {
    Matcher m = Pattern.compile("name=\"id\" value=\"([a-z2-7]{32})\"").matcher(page);
    assertTrue(m.find(), page);
    return m.group(1);
  }

  /** The upload form as a browser sends it: multipart, the token in the query string. */
  private static HttpResponse<String> upload(
      WebVisitor visitor, String csrf, Map<String, String> fields, String jsdl) throws Exception {
    String boundary = "----gantry-test-boundary";
    StringBuilder body = new StringBuilder();
    for (Map.Entry<String, String> f : fields.entrySet()) {
      body.append("--")
          .append(boundary)
          .append("\r\nContent-Disposition: form-data; name=\"")
          .append(f.getKey())
          .append("\"\r\n\r\n")
          .append(f.getValue())
          .append("\r\n");
    }
    body.append("--")
        .append(boundary)
        .append(
            "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"greet.jsdl\"\r\n"
                + "Content-Type: application/xml\r\n\r\n")
        .append(jsdl)
        .append("\r\n--")
        .append(boundary)
        .append("--\r\n");
    return visitor.send(
        visitor
            .request("/schedules/upload?csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8))
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)));
  }
}
