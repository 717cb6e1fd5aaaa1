package io.gantry.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK's HTTP server (plain, or HTTPS with a {@link TestKeystore}) on 127.0.0.1, serving a
 * directory: GET reads a file (with Content-Length and Last-Modified), HEAD tells its size and
 * modification time, PUT writes one. Tests can ask for Basic authentication, arm a number of 503
 * answers (a server failing for a while), and add redirects; every request is recorded as {@code
 * METHOD path}. A POST (a webhook's delivery) is kept with its headers and body, whatever the
 * answer to it, and answered 204.
 */
public final class HttpTestServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(4);
  private final Path root;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<Post> posts = new CopyOnWriteArrayList<>();
  private final Map<String, String> redirects = new ConcurrentHashMap<>();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private volatile String basic;

  private HttpTestServer(Path root, TestKeystore tls) throws IOException {
    this.root = root;
    InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    if (tls == null) {
      server = HttpServer.create(address, 0);
    } else {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
      server = https;
    }
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  /** A plain HTTP server for {@code root}. */
  public static HttpTestServer http(Path root) {
    return ServedDirectory.serve(root, "test HTTP server", dir -> new HttpTestServer(dir, null));
  }

  /** An HTTPS server for {@code root} presenting {@code tls}'s certificate. */
  public static HttpTestServer https(Path root, TestKeystore tls) {
    return ServedDirectory.serve(root, "test HTTPS server", dir -> new HttpTestServer(dir, tls));
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:PORT} or {@code https://...}. */
  public String base() {
    return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:" + port();
  }

  /** Requires Basic authentication with this user and password. */
  public void requireLogin(String user, String password) {
    basic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** The next {@code count} requests are answered 503. */
  public void failNext(int count) {
    failuresLeft.set(count);
  }

  /** A request for {@code path} is answered 302 to {@code location}. */
  public void redirect(String path, String location) {
    redirects.put(path, location);
  }

  public List<String> requests() {
    return List.copyOf(requests);
  }

  /**
   * A POST as it arrived: its path, its headers (names in lower case, first values), its body, and
   * when it had been read (for latency measurements).
   */
  public record Post(
      String path, Map<String, String> headers, String body, java.time.Instant receivedAt) {}

  /** Every POST so far, in the order they arrived. */
  public List<Post> posts() {
    return List.copyOf(posts);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      requests.add(exchange.getRequestMethod() + " " + path);
      if (exchange.getRequestMethod().equals("POST")) {
        keep(exchange, path);
      }
      if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        exchange.sendResponseHeaders(503, -1);
        return;
      }
      if (basic != null && !basic.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"test\"");
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      if (redirects.containsKey(path)) {
        exchange.getResponseHeaders().add("Location", redirects.get(path));
        exchange.sendResponseHeaders(302, -1);
        return;
      }
      Path file = root.resolve(path.substring(1)).normalize();
      if (!file.startsWith(root)) {
        exchange.sendResponseHeaders(403, -1);
        return;
      }
      switch (exchange.getRequestMethod()) {
        case "GET" -> get(exchange, file);
        case "HEAD" -> head(exchange, file);
        case "PUT" -> put(exchange, file);
        case "POST" -> exchange.sendResponseHeaders(204, -1);
        default -> exchange.sendResponseHeaders(405, -1);
      }
    }
  }

  private void keep(HttpExchange exchange, String path) throws IOException {
    Map<String, String> headers = new java.util.TreeMap<>();
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), values.get(0)));
    try (InputStream in = exchange.getRequestBody()) {
      String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      posts.add(new Post(path, headers, body, java.time.Instant.now()));
    }
  }

  private static void get(HttpExchange exchange, Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      exchange.sendResponseHeaders(404, -1);
      return;
    }
    exchange.getResponseHeaders().set("Last-Modified", lastModified(file));
    exchange.sendResponseHeaders(200, Files.size(file));
    try (OutputStream out = exchange.getResponseBody()) {
      Files.copy(file, out);
    }
  }

  private static void head(HttpExchange exchange, Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      exchange.sendResponseHeaders(404, -1);
      return;
    }
    // the JDK server sends no Content-Length of its own for HEAD
    exchange.getResponseHeaders().set("Content-Length", Long.toString(Files.size(file)));
    exchange.getResponseHeaders().set("Last-Modified", lastModified(file));
    exchange.sendResponseHeaders(200, -1);
  }

  private static String lastModified(Path file) throws IOException {
    return java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
        Files.getLastModifiedTime(file).toInstant().atZone(java.time.ZoneOffset.UTC));
  }

  private static void put(HttpExchange exchange, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    boolean existed = Files.exists(file);
    try (InputStream in = exchange.getRequestBody()) {
      Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    exchange.sendResponseHeaders(existed ? 204 : 201, -1);
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
