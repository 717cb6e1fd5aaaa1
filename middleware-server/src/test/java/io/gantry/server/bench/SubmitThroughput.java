package io.gantry.server.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Durable submissions per second with N concurrent SOAP clients. Each client is one thread with
 * its own HTTP connection, posting a prepared submitJob envelope and waiting for the answer
 * before the next: a closed loop, so latency and throughput are measured together. A submit
 * counts only when the answer carries a job id, which the server returns after the job is
 * committed to the job store.
 */
final class SubmitThroughput {
  record Result(int clients, long submits, double perSecond, LatencySummary latency, long errors) {}

  private final URI endpoint;
  private final byte[] envelope;

  SubmitThroughput(String url, String jobDefinitionXml) {
    this.endpoint = URI.create(url);
    this.envelope = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:g=\"urn:gantry:jobmanagement:1\">"
        + "<s:Body><g:submitJob><g:jobDefinition>" + jobDefinitionXml + "</g:jobDefinition></g:submitJob>"
        + "</s:Body></s:Envelope>").getBytes(StandardCharsets.UTF_8);
  }

  /** Runs {@code clients} for {@code warmUp} (not counted), then measures for {@code measure}. */
  Result run(int clients, Duration warmUp, Duration measure) throws InterruptedException {
    long start = System.nanoTime() + warmUp.toNanos();
    long end = start + measure.toNanos();
    List<long[]> latencies = new ArrayList<>();
    List<int[]> counts = new ArrayList<>();
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(clients);
    for (int i = 0; i < clients; i++) {
      long[] mine = new long[2_000_000 / clients + 1000];
      int[] n = new int[1];
      latencies.add(mine);
      counts.add(n);
      Thread t = new Thread(() -> {
        try {
          clientLoop(start, end, mine, n, errors);
        } finally {
          done.countDown();
        }
      }, "bench-client-" + i);
      t.setDaemon(true);
      t.start();
    }
    done.await();
    int total = counts.stream().mapToInt(c -> c[0]).sum();
    long[] all = new long[total];
    int k = 0;
    for (int i = 0; i < clients; i++) {
      System.arraycopy(latencies.get(i), 0, all, k, counts.get(i)[0]);
      k += counts.get(i)[0];
    }
    return new Result(clients, total, total / (measure.toNanos() / 1e9), LatencySummary.of(all), errors.get());
  }

  private void clientLoop(long start, long end, long[] latencies, int[] count, AtomicLong errors) {
    HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY)
        .connectTimeout(Duration.ofSeconds(10)).build();
    HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"\"")
        .POST(HttpRequest.BodyPublishers.ofByteArray(envelope)).build();
    long now;
    while ((now = System.nanoTime()) < end) {
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        long took = System.nanoTime() - now;
        if (response.statusCode() != 200 || !response.body().contains("jobId>")) {
          errors.incrementAndGet();
        } else if (now >= start && count[0] < latencies.length) {
          latencies[count[0]++] = took;
        }
      } catch (Exception e) {
        errors.incrementAndGet();
      }
    }
  }
}
