package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSDL upload's limits over plain HTTPS: a file over the limit and a broken multipart body are
 * answered with the wizard page and a sentence that says what went wrong, and nothing of them
 * stays in the uploads directory.
 */
class WizardUploadLimitTest {
  private static final Pattern TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private static final String BOUNDARY = "gantry-test-boundary-7d1f";
  @TempDir static Path dir;
  static WebServer server;
  static HttpClient http;
  static String csrf;

  @BeforeAll
  static void startServerAndLogIn() throws Exception {
    server = WebServer.start(dir, Map.of("demo.enabled", "false"));
    http = HttpClient.newBuilder().sslContext(server.httpClient().sslContext()).cookieHandler(new CookieManager())
        .proxy(HttpClient.Builder.NO_PROXY).followRedirects(HttpClient.Redirect.NEVER).build();
    String token = token(get("/login").body());
    HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(server.url("/login")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("csrf=" + token + "&username=alice&password="
            + URLEncoder.encode(WebServer.password(WebServer.ALICE), StandardCharsets.UTF_8))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(302, login.statusCode());
    csrf = token(get("/wizard").body());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(server.url(path))).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String token(String page) {
    Matcher token = TOKEN.matcher(page);
    assertTrue(token.find(), "the page has a CSRF token");
    return token.group(1);
  }

  private static byte[] multipart(byte[] content, boolean closed) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.jsdl\"\r\n"
        + "Content-Type: application/xml\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    body.writeBytes(content);
    if (closed) {
      body.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    }
    return body.toByteArray();
  }

  private static HttpResponse<String> upload(byte[] body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(server.url("/wizard/upload?csrf=" + csrf)))
        .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<Path> uploadsLeft() throws Exception {
    Path uploads = server.dataDir().resolve("web").resolve("uploads");
    try (Stream<Path> files = Files.list(uploads)) {
      return files.toList();
    }
  }

  /** The uploads directory once the server has finished with the request (it may clean up just after answering). */
  private static List<Path> uploadsLeftAfterwards() throws Exception {
    List<Path> left = uploadsLeft();
    for (int i = 0; i < 50 && !left.isEmpty(); i++) {
      Thread.sleep(100);
      left = uploadsLeft();
    }
    return left;
  }

  @Test
  void aFileOverTheLimitIsRefusedWithTheLimitNamedAndNotKept() throws Exception {
    byte[] big = new byte[5 * 1024 * 1024];
    Arrays.fill(big, (byte) 'x');
    HttpResponse<String> answer = upload(multipart(big, true));
    assertEquals(413, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("id=\"upload-problems\""), "the wizard page with the problem: " + answer.body());
    assertTrue(answer.body().contains("The file is larger than 4 MiB; Gantry accepts job descriptions up to 4 MiB."),
        answer.body());
    assertEquals(List.of(), uploadsLeftAfterwards(), "nothing of the file stays on disk");
    assertEquals(200, get("/wizard").statusCode(), "the session goes on");
  }

  @Test
  void aBrokenMultipartBodyIsRefusedClearly() throws Exception {
    HttpResponse<String> answer = upload(multipart("<x/>".getBytes(StandardCharsets.UTF_8), false));
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("The upload was broken off or is not a file upload the wizard can read"),
        answer.body());
    assertEquals(List.of(), uploadsLeftAfterwards());
  }

  @Test
  void anUploadWithoutTheTokenIsRefusedBeforeItsBodyIsRead() throws Exception {
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(server.url("/wizard/upload")))
        .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
        .POST(HttpRequest.BodyPublishers.ofByteArray(multipart(("csrf=" + csrf).getBytes(StandardCharsets.UTF_8), true)))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, answer.statusCode());
  }

  @Test
  void aFileWithinTheLimitIsStillReadAndNotKept() throws Exception {
    HttpResponse<String> answer = upload(multipart(WebServer.echoJob("small-upload", "hello")
        .getBytes(StandardCharsets.UTF_8), true));
    assertEquals(List.of(), uploadsLeftAfterwards());
    // an echo job is a POSIX application, which the wizard (mpirun) refuses to edit: a clear 400 all the same
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("POSIXApplication"), answer.body());
  }
}
