package io.gantry.server.internal.identity;

import static io.gantry.server.internal.identity.SlapdDirectory.password;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real gantry-server with directory logins (a real slapd, over LDAPS) and OIDC access tokens (a
 * provider the test starts) beside a local account: SOAP calls with a directory password, with a
 * session token issued to a directory user and with an access token; a user disabled in the
 * directory refused at the next call whichever way they log in (directory.recheck-after=PT0S here);
 * tokens of the wrong audience, issuer, key or age refused.
 */
class DirectoryAndTokenLoginTest {
  private static final String AUDIENCE = "gantry-api";
  private static final String LIST_JOBS =
      "<g:offset>0</g:offset><g:limit>10</g:limit><g:allUsers>false</g:allUsers>";
  @TempDir static Path dir;
  private static SlapdDirectory slapd;
  private static TestOidcProvider provider;
  private static GantryTestServer server;
  private static final HttpClient http =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .proxy(HttpClient.Builder.NO_PROXY)
          .build();

  @BeforeAll
  static void start() throws Exception {
    TestCertificates tls = TestCertificates.make(dir.resolve("tls"));
    slapd = SlapdDirectory.start(dir.resolve("slapd"), tls);
    provider = TestOidcProvider.start(tls);
    Path servicePassword = dir.resolve("directory.password");
    Files.writeString(servicePassword, SlapdDirectory.SERVICE_PASSWORD + "\n");
    server =
        GantryTestServer.builder(dir.resolve("server"))
            .auth(true)
            .account(TestAccount.admin("operator"))
            .setting("directory.url", "ldaps://127.0.0.1:" + slapd.ldapsPort())
            .setting("directory.ca-file", tls.caFile().toString())
            .setting("directory.bind-dn", SlapdDirectory.SERVICE_DN)
            .setting("directory.bind-password-file", servicePassword.toString())
            .setting("directory.user-base", SlapdDirectory.PEOPLE)
            .setting("directory.user-filter", SlapdDirectory.USER_FILTER)
            .setting("directory.user-group", SlapdDirectory.USERS_GROUP)
            .setting("directory.admin-group", SlapdDirectory.ADMINS_GROUP)
            .setting("directory.os-account-attribute", "uid")
            .setting("directory.recheck-after", "PT0S")
            .setting("oidc.issuer", provider.issuer())
            .setting("oidc.audience", AUDIENCE)
            .setting("oidc.ca-file", tls.caFile().toString())
            .start();
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {server, provider, slapd}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private record Answer(int status, String body) {
    boolean fault() {
      return body.contains("Fault>");
    }
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static Answer call(String authorization, String operation, String body) throws Exception {
    String envelope =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv="
            + "\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:g=\"urn:gantry:jobmanagement:1\">"
            + "<soapenv:Body><g:"
            + operation
            + ">"
            + body
            + "</g:"
            + operation
            + "></soapenv:Body></soapenv:Envelope>";
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url()))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"\"")
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(envelope, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body());
  }

  private static void accepted(Answer answer) {
    assertEquals(200, answer.status(), answer.body());
    assertTrue(!answer.fault(), answer.body());
  }

  private static void refused(Answer answer, String why) {
    assertEquals(401, answer.status(), answer.body());
    assertTrue(answer.body().contains(why), answer.body());
  }

  @Test
  void directoryUsersLogInWithTheirPasswordsTheirGroupsDecideTheRoleAndLocalAccountsStay()
      throws Exception {
    accepted(call(basic("alice@gantry.test", password("alice")), "listJobs", LIST_JOBS));
    Answer users = call(basic("carol@gantry.test", password("carol")), "listUsers", "");
    accepted(users);
    assertTrue(
        Pattern.compile(
                "<name>alice@gantry.test</name><role>user</role><osAccount>alice</osAccount>")
            .matcher(users.body())
            .find(),
        users.body());
    assertTrue(users.body().contains("<name>carol@gantry.test</name><role>admin</role>"));
    Answer notAdmin = call(basic("alice@gantry.test", password("alice")), "listUsers", "");
    assertTrue(notAdmin.fault() && notAdmin.body().contains("administrator"), notAdmin.body());

    refused(
        call(basic("alice@gantry.test", "wrong"), "listJobs", LIST_JOBS),
        "unknown user or wrong password");
    refused(
        call(basic("dave@gantry.test", password("dave")), "listJobs", LIST_JOBS),
        "unknown user or wrong password");
    accepted(call(basic("operator", server.account("operator").password()), "listUsers", ""));
  }

  @Test
  void aUserDisabledInTheDirectoryIsRefusedAtTheNextCallWhateverTheyLogInWith() throws Exception {
    String bob = basic("bob@gantry.test", password("bob"));
    Answer issued = call(bob, "issueSessionToken", "<g:description>test</g:description>");
    accepted(issued);
    Matcher secret = Pattern.compile("<token>(gantry_st_[^<]+)</token>").matcher(issued.body());
    assertTrue(secret.find(), issued.body());
    String sessionToken = "Bearer " + secret.group(1);
    String accessToken =
        "Bearer " + provider.accessToken("bob@gantry.test", AUDIENCE, Duration.ofMinutes(5));
    accepted(call(sessionToken, "listJobs", LIST_JOBS));
    accepted(call(accessToken, "listJobs", LIST_JOBS));

    slapd.replace(SlapdDirectory.dn("bob"), "employeeType", "disabled");
    refused(call(bob, "listJobs", LIST_JOBS), "unknown user or wrong password");
    refused(call(sessionToken, "listJobs", LIST_JOBS), "authentication required");
    refused(call(accessToken, "listJobs", LIST_JOBS), "is no Gantry user");
  }

  @Test
  void accessTokensAreCheckedForSignatureIssuerAudienceAndExpiry() throws Exception {
    accepted(
        call(
            "Bearer " + provider.accessToken("alice@gantry.test", AUDIENCE, Duration.ofMinutes(5)),
            "listJobs",
            LIST_JOBS));
    // the local account, named by the provider
    accepted(
        call(
            "Bearer " + provider.accessToken("operator", AUDIENCE, Duration.ofMinutes(5)),
            "listUsers",
            ""));
    refused(
        call(
            "Bearer " + provider.accessToken("alice@gantry.test", AUDIENCE, Duration.ofMinutes(-5)),
            "listJobs",
            LIST_JOBS),
        "Expired JWT");
    refused(
        call(
            "Bearer "
                + provider.accessToken("alice@gantry.test", "another-api", Duration.ofMinutes(5)),
            "listJobs",
            LIST_JOBS),
        "aud claim rejected");
    refused(
        call(
            "Bearer " + provider.forgedToken("alice@gantry.test", AUDIENCE), "listJobs", LIST_JOBS),
        "access token refused");
    refused(
        call(
            "Bearer "
                + provider.tokenOfIssuer("https://other.example", "alice@gantry.test", AUDIENCE),
            "listJobs",
            LIST_JOBS),
        "iss");
    refused(call("Bearer not-a-token", "listJobs", LIST_JOBS), "not a signed JWT");
    refused(
        call(
            "Bearer " + provider.accessToken("nobody@gantry.test", AUDIENCE, Duration.ofMinutes(5)),
            "listJobs",
            LIST_JOBS),
        "is no Gantry user");
    // an access token lives minutes: it cannot be turned into a session token
    Answer longer =
        call(
            "Bearer " + provider.accessToken("alice@gantry.test", AUDIENCE, Duration.ofMinutes(5)),
            "issueSessionToken",
            "<g:description>longer</g:description>");
    assertTrue(longer.fault() && longer.body().contains("cannot issue"), longer.body());
  }
}
