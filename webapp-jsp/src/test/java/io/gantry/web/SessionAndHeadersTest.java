package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.server.GantryTestServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session rules and response headers, checked over plain HTTPS without a browser: a session
 * left idle past web.session-idle-timeout ends, login issues a new session id, pages carry the
 * security headers, and the SOAP API beside the pages keeps its own authentication.
 */
class SessionAndHeadersTest {
  @TempDir static Path dir;
  static GantryTestServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server =
        WebTestServer.start(dir, Map.of("web.session-idle-timeout", "2", "demo.enabled", "false"));
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  void aSessionLeftIdleLongerThanTheTimeoutEnds() throws Exception {
    WebVisitor alice = new WebVisitor(server);
    assertEquals(302, alice.logIn(WebTestServer.ALICE).statusCode());
    assertEquals(200, alice.get("/jobs").statusCode());
    Thread.sleep(1_000);
    assertEquals(200, alice.get("/jobs").statusCode(), "activity keeps the session alive");
    Thread.sleep(3_500);
    HttpResponse<String> later = alice.get("/jobs");
    assertEquals(302, later.statusCode());
    assertEquals(
        "/login",
        later.headers().firstValue("Location").map(l -> URI.create(l).getPath()).orElse(""));
  }

  @Test
  void loggingInIssuesANewSessionId() throws Exception {
    WebVisitor bob = new WebVisitor(server);
    bob.get("/login");
    String before = bob.sessionId();
    assertTrue(!before.isEmpty(), "the login form's session");
    assertEquals(302, bob.logIn(WebTestServer.BOB).statusCode());
    assertNotEquals(
        before, bob.sessionId(), "a session id known before login is worth nothing after it");
  }

  @Test
  void aWrongPasswordIsRefusedWithoutSayingWhetherTheUserExists() throws Exception {
    WebVisitor someone = new WebVisitor(server);
    String token = WebVisitor.token(someone.get("/login").body());
    HttpResponse<String> wrong =
        someone.post("/login", "csrf=" + token + "&username=alice&password=nope");
    HttpResponse<String> nobody =
        someone.post("/login", "csrf=" + token + "&username=nobody&password=nope");
    assertEquals(401, wrong.statusCode());
    assertEquals(401, nobody.statusCode());
    assertTrue(wrong.body().contains("Wrong user name or password."));
    assertTrue(nobody.body().contains("Wrong user name or password."));
    assertEquals(302, someone.get("/jobs").statusCode(), "still not logged in");
  }

  @Test
  void repeatedWrongPasswordsMakeTheFormSayHowLongToWait() throws Exception {
    WebVisitor guesser = new WebVisitor(server);
    String token = WebVisitor.token(guesser.get("/login").body());
    for (int i = 0; i < 5; i++) {
      assertEquals(
          401,
          guesser
              .post("/login", "csrf=" + token + "&username=admin&password=guess" + i)
              .statusCode());
    }
    String right =
        "csrf="
            + token
            + "&username=admin&password="
            + URLEncoder.encode(
                server.account(WebTestServer.ADMIN).password(), StandardCharsets.UTF_8);
    HttpResponse<String> throttled = guesser.post("/login", right);
    assertEquals(429, throttled.statusCode(), "even the right password waits");
    assertTrue(throttled.body().contains("Too many failed logins: wait 1 s"), throttled.body());
    assertEquals("1", throttled.headers().firstValue("Retry-After").orElse(""));
    Thread.sleep(1_200);
    assertEquals(
        302,
        guesser.post("/login", right).statusCode(),
        "after the wait the right password logs in");
  }

  @Test
  void pagesCarryTheSecurityHeaders() throws Exception {
    HttpResponse<String> login = new WebVisitor(server).get("/login");
    String policy = login.headers().firstValue("Content-Security-Policy").orElse("");
    assertTrue(
        policy.contains("default-src 'self'")
            && policy.contains("script-src 'self'")
            && !policy.contains("unsafe-inline")
            && policy.contains("frame-ancestors 'none'"),
        policy);
    assertEquals("nosniff", login.headers().firstValue("X-Content-Type-Options").orElse(""));
    assertEquals("DENY", login.headers().firstValue("X-Frame-Options").orElse(""));
    assertEquals("no-store", login.headers().firstValue("Cache-Control").orElse(""));
    assertTrue(login.headers().firstValue("Strict-Transport-Security").isPresent());
    String cookie =
        login.headers().allValues("Set-Cookie").stream()
            .filter(c -> c.startsWith(GantryWebApplication.SESSION_COOKIE + "="))
            .findFirst()
            .orElse("");
    assertTrue(
        cookie.contains("Secure")
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict"),
        cookie);
  }

  @Test
  void aPostFromAnotherOriginIsRefusedEvenWithTheToken() throws Exception {
    WebVisitor alice = new WebVisitor(server);
    alice.logIn(WebTestServer.ALICE);
    String token = WebVisitor.token(alice.get("/jobs").body());
    HttpResponse<String> crossSite =
        alice.send(
            alice
                .request("/logout")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + token)));
    assertEquals(403, crossSite.statusCode());
    assertEquals(200, alice.get("/jobs").statusCode(), "still logged in");
  }

  @Test
  void theSoapApiBesideThePagesStillWantsItsOwnLogin() throws Exception {
    HttpResponse<String> anonymous = new WebVisitor(server).post("/services/JobManagement", "");
    assertNotEquals(200, anonymous.statusCode());
    assertTrue(
        !anonymous.body().contains("<title>"),
        "no login page for SOAP clients: " + anonymous.body());
    String id =
        WebTestServer.submitAs(
            server, WebTestServer.ALICE, WebTestServer.echoJob("soap-beside-web", "hello"));
    assertEquals(32, id.length());
  }
}
