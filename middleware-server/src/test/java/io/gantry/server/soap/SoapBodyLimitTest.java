package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SOAP bodies are bounded at the HTTP layer, before CXF parses them: a gigabyte sent by anyone,
 * authenticated or not, with a Content-Length or chunked, is refused within seconds, the server
 * reads only a bounded part of it, and its heap does not grow with it. The body is generated while
 * it is sent, so the test holds none of it either.
 */
class SoapBodyLimitTest {
  private static final long GIGABYTE = 1L << 30;

  /** What the server may let in before answering: the bounds, the drain and the socket buffers. */
  private static final long MOST_LET_IN = 48L << 20;

  private static final String PASSWORD = "alice's SOAP password";
  private static final byte[] ENVELOPE_START =
      ("<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
              + "<soap:Body><validateJob xmlns=\"urn:gantry:jobmanagement:1\"><jobDefinition>")
          .getBytes(StandardCharsets.UTF_8);
  @TempDir static Path dir;
  static GantryTestServer server;
  static int port;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .auth(true)
            .account(new TestAccount("alice", PASSWORD, false, null))
            .start();
    port = java.net.URI.create(server.url()).getPort();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String basic(String password) {
    return "Authorization: Basic "
        + Base64.getEncoder().encodeToString(("alice:" + password).getBytes(StandardCharsets.UTF_8))
        + "\r\n";
  }

  private static long heapUsed() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * Posts a gigabyte and checks the refusal came quickly, let little in and left the heap as it
   * was.
   */
  private static StreamingPost.Answer gigabyte(String headers, boolean chunked) throws Exception {
    long heapBefore = heapUsed();
    long started = System.nanoTime();
    StreamingPost.Answer answer =
        StreamingPost.post(
            port, "/services/JobManagement", headers, ENVELOPE_START, GIGABYTE, chunked);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertTrue(took.compareTo(Duration.ofSeconds(20)) < 0, "refused in " + took);
    assertTrue(
        answer.bytesSentBeforeAnswer() < MOST_LET_IN,
        "the server let in " + answer.bytesSentBeforeAnswer());
    long growth = heapUsed() - heapBefore;
    assertTrue(growth < (64L << 20), "the heap grew by " + growth + " bytes");
    return answer;
  }

  @Test
  void anAnonymousGigabyteIsRefusedBeforeItsBodyIsRead() throws Exception {
    StreamingPost.Answer answer = gigabyte("", false);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    assertTrue(
        answer.body().contains("(http.unauthenticated-body-bytes)"), answer.head() + answer.body());
  }

  @Test
  void anAnonymousChunkedGigabyteIsCutOffAtTheUnauthenticatedBound() throws Exception {
    StreamingPost.Answer answer = gigabyte("", true);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    assertTrue(answer.body().contains("larger than 65536 bytes"), answer.body());
  }

  @Test
  void anAuthenticatedGigabyteIsRefusedBeforeItsBodyIsRead() throws Exception {
    StreamingPost.Answer answer = gigabyte(basic(PASSWORD), false);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    assertTrue(
        answer
            .body()
            .contains("(limits.job-definition-bytes plus http.soap-envelope-margin-bytes)"),
        answer.body());
  }

  @Test
  void anAuthenticatedChunkedGigabyteIsCutOffAtTheJobDefinitionLimit() throws Exception {
    StreamingPost.Answer answer = gigabyte(basic(PASSWORD), true);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    assertTrue(
        answer.body().contains("larger than " + (4 * 1024 * 1024 + 256 * 1024) + " bytes"),
        answer.body());
  }

  @Test
  void aWrongBasicPasswordIsRefusedBeforeTheBodyIsRead() throws Exception {
    StreamingPost.Answer answer = gigabyte(basic("a wrong password"), false);
    assertEquals(401, answer.status(), answer.head() + answer.body());
    assertTrue(
        answer.head().toLowerCase(java.util.Locale.ROOT).contains("www-authenticate: basic"),
        answer.head());
  }

  @Test
  void aSmallRefusedBodyIsDrainedAndTheConnectionStaysOpen() throws Exception {
    StreamingPost.Answer answer =
        StreamingPost.post(port, "/services/JobManagement", "", ENVELOPE_START, 200 * 1024, false);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    assertTrue(
        !answer.head().toLowerCase(java.util.Locale.ROOT).contains("connection: close"),
        "the whole body was read, so the connection can serve the next request: " + answer.head());
  }

  @Test
  void aUsernameTokenRequestIsBoundedAsAWholeBecauseItIsAuthenticatedOnlyAfterItIsRead()
      throws Exception {
    byte[] withToken =
        ("<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Header>"
                + "<wsse:Security xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\">"
                + "<wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password Type=\"http://docs.oasis-open.org/"
                + "wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText\">"
                + PASSWORD
                + "</wsse:Password>"
                + "</wsse:UsernameToken></wsse:Security></soap:Header><soap:Body><validateJob"
                + " xmlns=\"urn:gantry:jobmanagement:1\"><jobDefinition>")
            .getBytes(StandardCharsets.UTF_8);
    StreamingPost.Answer answer =
        StreamingPost.post(port, "/services/JobManagement", "", withToken, 200 * 1024, true);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    assertTrue(
        answer.body().contains("send larger requests with HTTP Basic authentication"),
        answer.body());
  }
}
