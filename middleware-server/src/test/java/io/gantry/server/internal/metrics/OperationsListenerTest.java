package io.gantry.server.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operations listener over real HTTP: /readyz names the failing check and answers 503, /metrics
 * carries every metric the Grafana dashboard and docs/operations.md name, and nothing but GET is
 * answered.
 */
class OperationsListenerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern METRIC = Pattern.compile("gantry_[a-z_]+");

  private final ServerMetrics metrics = new ServerMetrics();
  private OperationsListener listener;

  @BeforeEach
  void start() throws Exception {
    Readiness readiness =
        new Readiness()
            .with("job store", Optional::empty)
            .with("data directory", () -> Optional.of("/srv/gantry is gone"))
            .with(
                "backend",
                () -> {
                  throw new IllegalStateException("no mpirun");
                });
    metrics.watchJobStates(() -> Map.of("QUEUED", 2L, "RUNNING", 1L));
    metrics.watchStorage(Optional::empty);
    metrics.watchNotificationBacklog(() -> 4);
    metrics.watchReadiness(readiness);
    listener = OperationsListener.start("127.0.0.1", 0, metrics, readiness);
  }

  @AfterEach
  void stop() {
    listener.close();
  }

  @Test
  void readyzNamesEveryCheckAndFailsWithOne() throws Exception {
    HttpResponse<String> ready = get("/readyz");
    assertEquals(503, ready.statusCode());
    assertEquals(
        "job store: ok\n"
            + "data directory: /srv/gantry is gone\n"
            + "backend: IllegalStateException: no mpirun\n",
        ready.body());
  }

  @Test
  void metricsCarryWhatTheDashboardAndTheDocsName() throws Exception {
    metrics.jobStarted(Duration.ofSeconds(3));
    metrics.jobEnded("STAGING_OUT", Duration.ofMillis(1500));
    metrics.loginFailed("password");
    metrics.staged("in", "risk", "sql", 10, 1000, Duration.ofMillis(20));
    metrics.stageInCache(true);
    String body = get("/metrics").body();
    assertTrue(body.contains("gantry_jobs{state=\"QUEUED\"} 2"), body);
    assertTrue(body.contains("gantry_job_queue_wait_seconds_bucket{le=\"5.0\"} 1"), body);
    assertTrue(
        body.contains(
            "gantry_staging_rows_total{direction=\"in\",scheme=\"sql\",source=\"risk\"} 10"),
        body);
    assertTrue(body.contains("gantry_ready{check=\"data directory\"} 0"), body);
    assertTrue(body.contains("gantry_storage_ok 1"), body);
    assertTrue(body.contains("gantry_notification_backlog 4"), body);

    Set<String> exposed = names(body);
    Set<String> named = names(Files.readString(Path.of("..", "docs", "grafana-dashboard.json")));
    named.addAll(names(metricSections(Files.readString(Path.of("..", "docs", "operations.md")))));
    named.removeAll(exposed);
    assertEquals(Set.of(), named, "named in the dashboard or operations.md but not exposed");
  }

  @Test
  void onlyGetIsAnswered() throws Exception {
    HttpResponse<String> post =
        HTTP.send(
            HttpRequest.newBuilder(url("/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
    assertEquals(404, get("/metrics/other").statusCode());
  }

  /** Metric names, with histogram series' suffixes as exposed. */
  /**
   * The sections of operations.md that name metrics ("Metrics and health", "What to alert on"): the
   * others name the job store's tables (gantry_job, ...), which are no metrics.
   */
  private static String metricSections(String doc) {
    StringBuilder out = new StringBuilder();
    for (String section : doc.split("(?m)^(?=## )")) {
      if (section.startsWith("## Metrics and health")
          || section.startsWith("## What to alert on")) {
        out.append(section);
      }
    }
    return out.toString();
  }

  private static Set<String> names(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(text);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(url(path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + listener.address().getPort() + path);
  }
}
