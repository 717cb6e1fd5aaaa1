package io.gantry.web;

import io.gantry.soap.FingerprintTrustManager;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * gantry-server as a web user gets it, built with the one server fixture ({@link
 * GantryTestServer}): HTTPS with its self-signed certificate, user accounts, the demo market
 * database and the demo SSH host, and the web application found on the class path. Accounts: {@code
 * admin} (administrator), {@code alice} and {@code bob}. Also the clients the web tests use beside
 * a browser.
 */
final class WebTestServer {
  static final String ADMIN = "admin";
  static final String ALICE = "alice";
  static final String BOB = "bob";

  private WebTestServer() {}

  /** Starts a server in {@code dir} with these settings added (e.g. a short session timeout). */
  static GantryTestServer start(Path dir, Map<String, String> extra) throws Exception {
    return builder(dir, extra).start();
  }

  /** The server of {@link #start}, not started yet. */
  static io.gantry.testing.server.GantryTestServerBuilder builder(
      Path dir, Map<String, String> extra) {
    return GantryTestServer.builder(dir)
        .secure()
        .demo(300)
        // jobs run sandboxed; the built mcvar is visible to them only from an allowed root
        .setting(
            "jobs.allowed-executable-roots",
            Path.of("..", "node-programs", "build").toAbsolutePath().normalize().toString())
        .settings(extra)
        .account(TestAccount.admin(ADMIN))
        .account(TestAccount.user(ALICE))
        .account(TestAccount.user(BOB))
        .name("web");
  }

  /** An HTTP client that trusts exactly this server's certificate and never uses a proxy. */
  static HttpClient httpClient(GantryTestServer server) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(
        null,
        new TrustManager[] {new FingerprintTrustManager(server.fingerprint().orElseThrow())},
        null);
    return HttpClient.newBuilder()
        .sslContext(tls)
        .proxy(HttpClient.Builder.NO_PROXY)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  /** Submits a job as {@code user} through the SOAP API (HTTP Basic); returns its id. */
  static String submitAs(GantryTestServer server, String user, String jsdl) throws Exception {
    String envelope =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:g=\"urn:gantry:jobmanagement:1\">"
            + "<s:Body><g:submitJob><g:jobDefinition>"
            + jsdl.replaceFirst("^<\\?xml[^>]*\\?>", "")
            + "</g:jobDefinition></g:submitJob></s:Body></s:Envelope>";
    String basic =
        Base64.getEncoder()
            .encodeToString(
                (user + ":" + server.account(user).password()).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> answer =
        httpClient(server)
            .send(
                HttpRequest.newBuilder(URI.create(server.url()))
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .header("SOAPAction", "\"\"")
                    .header("Authorization", "Basic " + basic)
                    .POST(HttpRequest.BodyPublishers.ofString(envelope, StandardCharsets.UTF_8))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Matcher id = Pattern.compile("<jobId>([a-z2-7]{32})</jobId>").matcher(answer.body());
    if (answer.statusCode() != 200 || !id.find()) {
      throw new IOException(
          "submit as " + user + " answered " + answer.statusCode() + ": " + answer.body());
    }
    return id.group(1);
  }

  /** A POSIX job that echoes {@code text}, as JSDL. */
  static String echoJob(String name, String text) {
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\"><jsdl:JobDescription>"
        + "<jsdl:JobIdentification><jsdl:JobName>"
        + name
        + "</jsdl:JobName></jsdl:JobIdentification>"
        + "<jsdl:Application><posix:POSIXApplication><posix:Executable>/bin/echo</posix:Executable>"
        + "<posix:Argument>"
        + text
        + "</posix:Argument></posix:POSIXApplication></jsdl:Application>"
        + "</jsdl:JobDescription></jsdl:JobDefinition>";
  }
}
