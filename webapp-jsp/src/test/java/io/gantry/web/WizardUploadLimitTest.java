package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSDL upload's limits over plain HTTPS: a file over the limit and a broken multipart body are
 * answered with the wizard page and a sentence that says what went wrong, and nothing of them stays
 * in the uploads directory.
 */
class WizardUploadLimitTest {
  private static final String BOUNDARY = "gantry-test-boundary-7d1f";
  @TempDir static Path dir;
  static GantryTestServer server;
  static WebVisitor alice;
  static String csrf;

  @BeforeAll
  static void startServerAndLogIn() throws Exception {
    server = WebTestServer.start(dir, Map.of("demo.enabled", "false"));
    alice = new WebVisitor(server);
    assertEquals(302, alice.logIn(WebTestServer.ALICE).statusCode());
    csrf = WebVisitor.token(alice.get("/wizard").body());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static byte[] multipart(byte[] content, boolean closed) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(
        ("--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.jsdl\"\r\n"
                + "Content-Type: application/xml\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    body.writeBytes(content);
    if (closed) {
      body.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    }
    return body.toByteArray();
  }

  private static HttpResponse<String> upload(byte[] body) throws Exception {
    return alice.send(
        alice
            .request("/wizard/upload?csrf=" + csrf)
            .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  private static List<Path> uploadsLeft() throws Exception {
    Path uploads = server.dataDir().resolve("web").resolve("uploads");
    try (Stream<Path> files = Files.list(uploads)) {
      return files.toList();
    }
  }

  /**
   * The uploads directory once the server has finished with the request (it may clean up just after
   * answering).
   */
  private static List<Path> uploadsLeftAfterwards() {
    return Await.value(
        "the server to remove the refused upload",
        java.time.Duration.ofSeconds(5),
        WizardUploadLimitTest::uploadsLeft,
        List::isEmpty);
  }

  @Test
  void aFileOverTheLimitIsRefusedWithTheLimitNamedAndNotKept() throws Exception {
    byte[] big = new byte[5 * 1024 * 1024];
    Arrays.fill(big, (byte) 'x');
    HttpResponse<String> answer = upload(multipart(big, true));
    assertEquals(413, answer.statusCode(), answer.body());
    assertTrue(
        answer.body().contains("id=\"upload-problems\""),
        "the wizard page with the problem: " + answer.body());
    assertTrue(
        answer
            .body()
            .contains(
                "The file is larger than 4 MiB; Gantry accepts job descriptions up to 4 MiB."),
        answer.body());
    assertEquals(List.of(), uploadsLeftAfterwards(), "nothing of the file stays on disk");
    assertEquals(200, alice.get("/wizard").statusCode(), "the session goes on");
  }

  @Test
  void aBrokenMultipartBodyIsRefusedClearly() throws Exception {
    HttpResponse<String> answer = upload(multipart("<x/>".getBytes(StandardCharsets.UTF_8), false));
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(
        answer
            .body()
            .contains("The upload was broken off or is not a file upload the wizard can read"),
        answer.body());
    assertEquals(List.of(), uploadsLeftAfterwards());
  }

  @Test
  void anUploadWithoutTheTokenIsRefusedBeforeItsBodyIsRead() throws Exception {
    HttpResponse<String> answer =
        alice.send(
            alice
                .request("/wizard/upload")
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                .POST(
                    HttpRequest.BodyPublishers.ofByteArray(
                        multipart(("csrf=" + csrf).getBytes(StandardCharsets.UTF_8), true))));
    assertEquals(403, answer.statusCode());
  }

  @Test
  void aFileWithinTheLimitIsStillReadAndNotKept() throws Exception {
    HttpResponse<String> answer =
        upload(
            multipart(
                WebTestServer.echoJob("small-upload", "hello").getBytes(StandardCharsets.UTF_8),
                true));
    assertEquals(List.of(), uploadsLeftAfterwards());
    // an echo job is a POSIX application, which the wizard (mpirun) refuses to edit: a clear 400
    // all the same
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("POSIXApplication"), answer.body());
  }

  @Test
  void aFormOverTheLimitIsRefusedWithTheLimitNamedAndTheSessionGoesOn() throws Exception {
    String form =
        "csrf=" + csrf + "&step=identification&go=stay&description=" + "x".repeat(2 * 1024 * 1024);
    HttpResponse<String> answer = alice.post("/wizard", form);
    assertEquals(413, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("the form is larger than 1048576 bytes"), answer.body());
    assertEquals(200, alice.get("/wizard").statusCode(), "the session goes on");
  }
}
