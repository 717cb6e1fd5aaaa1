package io.gantry.server.internal.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The operations listener on a loopback port (ops.listen-port): GET /metrics (Prometheus text, or
 * OpenMetrics when the scraper asks for it), /healthz (the process answers) and /readyz (each
 * readiness check by name; 503 while one fails). It has no login, so the configuration accepts only
 * a loopback address for it; two threads serve it, and it reads no request body.
 */
public final class OperationsListener implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads;
  private final ServerMetrics metrics;
  private final Readiness readiness;

  private OperationsListener(
      HttpServer server, ExecutorService threads, ServerMetrics metrics, Readiness readiness) {
    this.server = server;
    this.threads = threads;
    this.metrics = metrics;
    this.readiness = readiness;
  }

  /** Listens on host:port (port 0: a free one) until closed. */
  public static OperationsListener start(
      String host, int port, ServerMetrics metrics, Readiness readiness) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
    ExecutorService threads =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "gantry-ops-listener");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    OperationsListener listener = new OperationsListener(server, threads, metrics, readiness);
    server.createContext("/metrics", listener::metrics);
    server.createContext("/healthz", exchange -> answer(exchange, 200, "text/plain", "alive\n"));
    server.createContext("/readyz", listener::readyz);
    server.start();
    return listener;
  }

  /** Where it listens. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private void metrics(HttpExchange exchange) throws IOException {
    if (!"/metrics".equals(exchange.getRequestURI().getPath())) {
      answer(exchange, 404, "text/plain", "not found\n");
      return;
    }
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    ExpositionFormatWriter openMetrics = OpenMetricsTextFormatWriter.create();
    ExpositionFormatWriter writer =
        openMetrics.accepts(accept) ? openMetrics : PrometheusTextFormatWriter.create();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    writer.write(body, metrics.registry().scrape());
    answer(exchange, 200, writer.getContentType(), body.toByteArray());
  }

  private void readyz(HttpExchange exchange) throws IOException {
    Map<String, String> answers = readiness.check();
    StringBuilder text = new StringBuilder();
    boolean ready = true;
    for (Map.Entry<String, String> answer : answers.entrySet()) {
      boolean ok = answer.getValue().isEmpty();
      ready &= ok;
      text.append(answer.getKey())
          .append(": ")
          .append(ok ? "ok" : answer.getValue().replace('\n', ' '))
          .append('\n');
    }
    answer(exchange, ready ? 200 : 503, "text/plain", text.toString());
  }

  private static void answer(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    answer(exchange, status, type + "; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
  }

  private static void answer(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
