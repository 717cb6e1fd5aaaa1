package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.server.GantryTestServer;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser without a browser: an HTTP client with its own cookie jar that trusts exactly the test
 * server's certificate and follows no redirects, for tests of status codes and headers that
 * Selenium cannot see.
 */
final class WebVisitor {
  private static final Pattern TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private final GantryTestServer server;
  private final CookieManager cookies = new CookieManager();
  final HttpClient http;

  WebVisitor(GantryTestServer server) throws Exception {
    this.server = server;
    http =
        HttpClient.newBuilder()
            .sslContext(WebTestServer.httpClient(server).sslContext())
            .cookieHandler(cookies)
            .proxy(HttpClient.Builder.NO_PROXY)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  HttpResponse<String> get(String path) throws Exception {
    return send(request(path).GET());
  }

  /** Posts a form ({@code application/x-www-form-urlencoded}, already encoded). */
  HttpResponse<String> post(String path, String form) throws Exception {
    return send(
        request(path)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(server.url(path)));
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Fills in the login form as {@code user} with the right password; the answer is 302 on success.
   */
  HttpResponse<String> logIn(String user) throws Exception {
    return post(
        "/login",
        "csrf="
            + token(get("/login").body())
            + "&username="
            + user
            + "&password="
            + URLEncoder.encode(server.account(user).password(), StandardCharsets.UTF_8));
  }

  /** The session cookie's value; empty before the server set one. */
  String sessionId() {
    return cookies.getCookieStore().getCookies().stream()
        .filter(c -> c.getName().equals(GantryWebApplication.SESSION_COOKIE))
        .map(HttpCookie::getValue)
        .findFirst()
        .orElse("");
  }

  /** The CSRF token of a page's forms. */
  static String token(String page) {
    Matcher token = TOKEN.matcher(page);
    assertTrue(token.find(), "the page has a CSRF token");
    return token.group(1);
  }
}
