package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.server.GantryTestServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed SOAP login, by HTTP Basic or by a WS-Security UsernameToken, opens no web session: the
 * SOAP API shares its servlet context with the web face, and an answer rendered through the web
 * face's error pages used to create one for every failure (memory a guesser could fill).
 */
class FailedSoapLoginSessionTest {
  private static final String ENVELOPE =
      "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\""
          + " xmlns:g=\"urn:gantry:jobmanagement:1\">%s<s:Body><g:getServerInfo/></s:Body></s:Envelope>";
  @TempDir static Path dir;
  static GantryTestServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server =
        WebTestServer.start(
            dir, Map.of("demo.enabled", "false", "auth.failed-logins-before-delay", "1000"));
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static HttpResponse<String> soap(String header, String securityHeader) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url("/services/JobManagement")))
            .header("Content-Type", "text/xml; charset=utf-8")
            .header("SOAPAction", "\"\"")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    ENVELOPE.formatted(securityHeader), StandardCharsets.UTF_8));
    if (header != null) {
      request.header("Authorization", header);
    }
    return WebTestServer.httpClient(server)
        .send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> cookies(HttpResponse<String> answer) {
    return answer.headers().allValues("Set-Cookie");
  }

  @Test
  void aWrongBasicPasswordIsAnsweredWithoutAWebSession() throws Exception {
    String basic =
        "Basic "
            + Base64.getEncoder().encodeToString("alice:wrong".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> answer = soap(basic, "");
    assertEquals(401, answer.statusCode(), answer.body());
    assertEquals(List.of(), cookies(answer));
  }

  @Test
  void aWrongUsernameTokenIsAnsweredWithoutAWebSession() throws Exception {
    String security =
        "<s:Header><wsse:Security s:mustUnderstand=\"1\" xmlns:wsse=\"http://docs.oasis-open.org/wss/"
            + "2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\"><wsse:UsernameToken><wsse:Username>alice"
            + "</wsse:Username><wsse:Password Type=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-"
            + "username-token-profile-1.0#PasswordText\">wrong</wsse:Password></wsse:UsernameToken></wsse:Security>"
            + "</s:Header>";
    HttpResponse<String> answer = soap(null, security);
    assertEquals(401, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("unknown user or wrong password"), answer.body());
    assertEquals(List.of(), cookies(answer));
  }

  @Test
  void noCredentialsAtAllIsAnsweredWithoutAWebSession() throws Exception {
    HttpResponse<String> answer = soap(null, "");
    assertTrue(answer.body().contains("authentication required"), answer.body());
    assertEquals(List.of(), cookies(answer));
  }
}
