package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.server.GantryServer;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * Fuzz test of the SOAP request path (docs/reliability.md): any bytes posted as a request's
 * envelope go through Jetty, the servlet filters, CXF's interceptors and data binding into the
 * service, in this JVM (so Jazzer sees the server's code). Every request gets an answer: a SOAP
 * response, a SOAP fault the caller can act on, or a 4xx for what is not SOAP; never a generic
 * "internal server error" (an exception the service did not expect), another 5xx, or no answer. One
 * server, plain HTTP on loopback with no login, for the whole run; without JAZZER_FUZZ the kept
 * inputs (src/test/resources/io/gantry/server/soap/SoapRequestFuzzTestInputs/envelope/) run once.
 */
class SoapRequestFuzzTest {
  private static final Set<Integer> CLIENT_ERRORS = Set.of(400, 404, 405, 411, 413, 415, 431);
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .proxy(HttpClient.Builder.NO_PROXY)
          .build();
  private static final GantryServer SERVER = start();
  private static final URI ENDPOINT = URI.create(SERVER.jobManagementUrl());

  private static GantryServer start() {
    try {
      Path dir = Files.createTempDirectory("gantry-soap-fuzz");
      // one slot: a job the fuzzer submits runs (as the jobs' account, in its sandbox) one at a
      // time
      GantryServer server =
          GantryServer.start(
              new ServerConfigLoader()
                  .load(null, GantryTestServer.builder(dir).slots(1).settingsMap()));
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("the server for the SOAP fuzz test did not start", e);
    }
  }

  @FuzzTest(maxDuration = "120s")
  void envelope(byte[] body) throws Exception {
    HttpResponse<String> answer =
        HTTP.send(
            HttpRequest.newBuilder(ENDPOINT)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    int status = answer.statusCode();
    String text = answer.body();
    if (status == 200) {
      assertTrue(text.contains("Envelope"), "a 200 without an envelope: " + text);
    } else if (status == 500) {
      assertTrue(text.contains("Fault"), "a 500 that is no SOAP fault: " + text);
      // the fault's own text, not the caller's words it may quote
      int start = text.indexOf("<faultstring>");
      assertTrue(start >= 0, "a fault without its text: " + text);
      assertFalse(
          text.startsWith("internal server error (incident", start + "<faultstring>".length()),
          "an exception the service did not expect (the server's log names it): " + text);
    } else {
      assertTrue(CLIENT_ERRORS.contains(status), "HTTP " + status + ": " + text);
    }
  }
}
