package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job and results pages read files the job's program may have replaced with links to the
 * server's secrets (here the keystore password of this very server): the pages show neither the
 * secret nor an error page. The swaps are made here, as the job's program would make them. A
 * progress file the program wrote (docs/live-results.md) is shown as live results, its names
 * escaped.
 */
class JobFileLinksWebTest {
  @TempDir static Path dir;
  static GantryTestServer server;
  static String secret;

  @BeforeAll
  static void startServer() throws Exception {
    server = WebTestServer.start(dir, Map.of("demo.enabled", "false"));
    secret = Files.readString(server.dataDir().resolve("tls/keystore.password")).strip();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static Path finishedJob(WebVisitor alice, String name) throws Exception {
    String id =
        WebTestServer.submitAs(server, WebTestServer.ALICE, WebTestServer.echoJob(name, "hello"));
    Await.until(
        "job " + id + "'s page to say SUCCEEDED",
        Duration.ofSeconds(60),
        () -> alice.get("/jobs/" + id).body().contains(">SUCCEEDED<"));
    return server.dataDir().resolve("jobs").resolve(id);
  }

  @Test
  void aProgressFileIsShownAsLiveResultsWithItsNamesEscaped() throws Exception {
    WebVisitor alice = new WebVisitor(server);
    alice.logIn(WebTestServer.ALICE);
    Path job = finishedJob(alice, "progress");
    Files.writeString(
        job.resolve("progress.csv"),
        "done,total,unit,figure,value,stderr\n"
            + "1000,4000,scenarios,VaR 0.99 <b>BANK</b>,100,10\n"
            + "2000,4000,scenarios,VaR 0.99 <b>BANK</b>,104,5\n");
    String body = alice.get("/jobs/" + job.getFileName() + "/results").body();
    assertTrue(body.contains("Live results: 2,000 of 4,000 scenarios"), body);
    assertTrue(body.contains("class=\"progress-plot\""), body);
    assertTrue(body.contains("VaR 0.99 &lt;b&gt;BANK&lt;/b&gt;"), body);
    assertFalse(body.contains("<b>BANK"), "a job's figure name is text, never markup");
    assertTrue(body.contains("4.81%"), "the relative standard error: " + body);
    Files.writeString(job.resolve("progress.csv"), "not,a,progress,file\n");
    String bad = alice.get("/jobs/" + job.getFileName() + "/results").body();
    assertTrue(bad.contains("progress.csv:1: the header is not"), bad);
  }

  @Test
  void aResultsDirectoryLinkedToTheServersTlsDirectoryShowsNoSecret() throws Exception {
    WebVisitor alice = new WebVisitor(server);
    alice.logIn(WebTestServer.ALICE);
    Path job = finishedJob(alice, "results-link");
    String id = job.getFileName().toString();
    Path tls = server.dataDir().resolve("tls");
    Files.copy(tls.resolve("keystore.password"), tls.resolve("var_summary.csv.gz"));
    Files.createSymbolicLink(job.resolve("results"), Path.of("../../tls"));

    HttpResponse<String> results = alice.get("/jobs/" + id + "/results");
    assertEquals(200, results.statusCode());
    assertFalse(
        results.body().contains(secret), "the keystore password leaked through the results page");
    assertTrue(results.body().contains("no VaR results"), results.body());
    HttpResponse<String> page = alice.get("/jobs/" + id);
    assertFalse(
        page.body().contains("id=\"results-link\""), "no results link for results behind a link");
  }

  @Test
  void stdoutLinkedToTheKeystorePasswordShowsANoteInsteadOfTheSecret() throws Exception {
    WebVisitor alice = new WebVisitor(server);
    alice.logIn(WebTestServer.ALICE);
    Path job = finishedJob(alice, "stdout-link");
    Files.delete(job.resolve("stdout.txt"));
    Files.createSymbolicLink(job.resolve("stdout.txt"), Path.of("../../tls/keystore.password"));

    HttpResponse<String> page = alice.get("/jobs/" + job.getFileName());
    assertEquals(200, page.statusCode());
    assertFalse(page.body().contains(secret), "the keystore password leaked through the job page");
    assertTrue(page.body().contains("id=\"stdout-note\""), "the page says why there is no output");
  }
}
