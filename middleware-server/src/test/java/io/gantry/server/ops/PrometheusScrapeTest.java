package io.gantry.server.ops;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.RiskDatabase;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's prometheus) scrapes a real gantry-server's loopback operations
 * listener (ops.listen-port) while a job runs; the test reads the job's metrics back through
 * Prometheus's HTTP query API, and /healthz and /readyz from the server.
 */
class PrometheusScrapeTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final Pattern OPS_PORT =
      Pattern.compile("metrics and health on http://127\\.0\\.0\\.1:(\\d+)/metrics");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir static Path dir;
  static GantryTestServer server;
  static Process prometheus;
  static int opsPort;
  static int prometheusPort;

  @BeforeAll
  static void start() throws Exception {
    RiskDatabase risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("ops.listen-port", "0");
    server = GantryTestServer.builder(dir).settings(settings).start();
    opsPort =
        Await.value(
            "the operations listener's address in the server's log",
            Duration.ofSeconds(10),
            () -> {
              Matcher m = OPS_PORT.matcher(server.log());
              return m.find() ? Integer.parseInt(m.group(1)) : 0;
            },
            port -> port > 0);
    prometheusPort = freePort();
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "global:",
            "  scrape_interval: 1s",
            "  scrape_timeout: 1s",
            "scrape_configs:",
            "  - job_name: gantry",
            "    static_configs:",
            "      - targets: ['127.0.0.1:" + opsPort + "']",
            ""));
    prometheus =
        new ProcessBuilder(
                List.of(
                    "prometheus",
                    "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("tsdb"),
                    "--web.listen-address=127.0.0.1:" + prometheusPort))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (prometheus != null) {
      prometheus.destroy(); // SIGTERM to its PID
      if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly().waitFor();
      }
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void prometheusReadsAJobsQueueWaitAndTheJobStatesBack() throws Exception {
    JobManagement client = JobManagementClients.of(server);
    String id = client.submitJob(RiskDatabase.valuationJob("scraped").document());
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);

    assertEquals(
        "1",
        Await.value(
            "Prometheus's gantry_job_queue_wait_seconds_count",
            LIMIT,
            () -> query("gantry_job_queue_wait_seconds_count"),
            "1"::equals));
    assertEquals(
        "1",
        Await.value(
            "Prometheus's gantry_jobs{state=\"SUCCEEDED\"}",
            LIMIT,
            () -> query("gantry_jobs{state=\"SUCCEEDED\"}"),
            "1"::equals));
    assertEquals(
        "1",
        Await.value(
            "Prometheus's gantry_ready{check=\"job store\"}",
            LIMIT,
            () -> query("gantry_ready{check=\"job store\"}"),
            "1"::equals));
    String metrics = get("/metrics").body();
    assertTrue(
        metrics.contains("gantry_job_run_seconds_count{outcome=\"STAGING_OUT\"} 1"), metrics);
    assertTrue(
        metrics.contains(
            "gantry_staging_rows_total{direction=\"in\",scheme=\"sql\",source=\""
                + RiskDatabase.NAME
                + "\"} "
                + RiskDatabase.POSITIONS),
        metrics);
    assertTrue(metrics.contains("gantry_stage_in_cache_total{result=\"miss\"} 1"), metrics);
    assertFalse(metrics.contains(id), "no job id in a label: " + metrics);
  }

  @Test
  void healthzAnswersAndReadyzNamesEachCheck() throws Exception {
    HttpResponse<String> health = get("/healthz");
    assertEquals(200, health.statusCode());
    assertEquals("alive\n", health.body());
    HttpResponse<String> ready = get("/readyz");
    assertEquals(200, ready.statusCode(), ready.body());
    assertEquals("job store: ok\ndata directory: ok\nbackend: ok\n", ready.body());
  }

  /** The single value of an instant query, or "" while Prometheus has none (or is not up yet). */
  private static String query(String promql) {
    try {
      HttpResponse<String> answer =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:"
                              + prometheusPort
                              + "/api/v1/query?query="
                              + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      Matcher value =
          Pattern.compile("\"value\":\\[[0-9.]+,\"([^\"]+)\"\\]").matcher(answer.body());
      return value.find() ? value.group(1) : "";
    } catch (IOException e) {
      return ""; // Prometheus still starting
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
