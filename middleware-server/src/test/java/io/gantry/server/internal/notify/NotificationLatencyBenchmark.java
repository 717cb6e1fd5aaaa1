package io.gantry.server.internal.notify;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.TestKeystore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Delivery latency of webhooks (bench/notify): from the commit of a job's state change to the
 * receiver having read its event, through the job store's outbox and the delivery thread, over
 * HTTPS on loopback. Baseline in the same run: a plain HTTPS POST of a body of the same size to the
 * same receiver, from send to answer. Two loads: one change at a time, and bursts of changes.
 * Prints {@code name: value} lines; percentiles by the nearest-rank method.
 */
public final class NotificationLatencyBenchmark {
  public static void main(String[] args) throws Exception {
    int changes = Integer.getInteger("bench.changes", 200);
    Path dir = Files.createTempDirectory("gantry-notify-bench");
    TestKeystore tls = TestKeystore.generate(dir);
    try (HttpTestServer receiver =
            HttpTestServer.https(Files.createDirectories(dir.resolve("www")), tls);
        JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      String hook = receiver.base() + "/hooks/bench";
      String sample = baselineBody();
      long[] baseline = baseline(receiver.base() + "/baseline", sample, tls, changes);
      NotificationDelivery delivery =
          new NotificationDelivery(
              store.outbox(),
              store,
              store.subscriptions(),
              new WebhookSender(
                  List.of("127.0.0.1:" + receiver.port()),
                  SigningKey.loadOrCreate(dir.resolve("key")),
                  tls.trustStore(),
                  Clock.systemUTC()),
              MailSender.disabled("urn:gantry:bench"),
              "urn:gantry:bench",
              Duration.ofHours(1),
              Duration.ofSeconds(1),
              Clock.systemUTC());
      delivery.start();
      String job = WebhookDeliveryTest.jobWithNotify(List.of("job.state-changed"), hook);
      long[] single = measure(store, receiver, job, changes, 1);
      long[] burst = measure(store, receiver, job, changes, 20);
      delivery.close();
      print("notify.baseline_https_post", baseline);
      print("notify.one_at_a_time", single);
      print("notify.bursts_of_20", burst);
      System.out.printf(
          "notify.goal_p99_under_2000_ms: %s%n",
          percentile(single, 0.99) < 2000 && percentile(burst, 0.99) < 2000 ? "met" : "missed");
    }
  }

  /**
   * Moves {@code changes} jobs from QUEUED to STAGING_IN, {@code burst} at a time, waiting for the
   * events of each burst; returns each event's latency, commit to receipt, in microseconds.
   */
  private static long[] measure(
      JdbcJobStore store, HttpTestServer receiver, String job, int changes, int burst)
      throws InterruptedException {
    long[] latencies = new long[changes];
    for (int done = 0; done < changes; done += burst) {
      int n = Math.min(burst, changes - done);
      int before = receiver.posts().size();
      for (int i = 0; i < n; i++) {
        JobRecord j = store.submit("bench", "bench", job);
        store.transition(j.id(), JobState.QUEUED, JobState.STAGING_IN, "bench");
      }
      while (receiver.posts().size() < before + 2 * n) {
        Thread.sleep(1);
      }
      List<HttpTestServer.Post> posts = receiver.posts().subList(before, before + 2 * n);
      int k = done;
      for (HttpTestServer.Post post : posts) {
        if ("STAGING_IN".equals(Receiver.member(post.body(), "to"))) {
          Instant committed = Instant.parse(Receiver.member(post.body(), "time"));
          latencies[k++] = Duration.between(committed, post.receivedAt()).toNanos() / 1000;
        }
      }
    }
    return latencies;
  }

  private static long[] baseline(String url, String body, TestKeystore tls, int count)
      throws Exception {
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(tls.trustStore());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    HttpClient client = HttpClient.newBuilder().sslContext(context).build();
    long[] micros = new long[count];
    for (int i = 0; i < count; i++) {
      long start = System.nanoTime();
      client.send(
          HttpRequest.newBuilder(URI.create(url))
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build(),
          HttpResponse.BodyHandlers.discarding());
      micros[i] = (System.nanoTime() - start) / 1000;
    }
    return micros;
  }

  /** A body as long as a state-changed event's. */
  private static String baselineBody() {
    return "x".repeat(520);
  }

  private static void print(String name, long[] micros) {
    System.out.printf("%s.count: %d%n", name, micros.length);
    System.out.printf("%s.p50_ms: %.2f%n", name, percentile(micros, 0.50));
    System.out.printf("%s.p99_ms: %.2f%n", name, percentile(micros, 0.99));
  }

  private static double percentile(long[] micros, double q) {
    long[] sorted = micros.clone();
    Arrays.sort(sorted);
    return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)] / 1000.0;
  }
}
