package io.gantry.server.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;

/**
 * N concurrent SOAP clients calling one operation in a closed loop. Each client is one thread with
 * its own HTTP/1.1 connection (kept open: over TLS the handshake is paid once per client, as by a
 * real client), posting a prepared envelope and waiting for the answer before the next, so latency
 * and throughput are measured together: the calls that complete inside the measured window count,
 * however long ago they were sent (a call slower than the window still shows in the figures of a
 * longer window, never as a false zero). Client i logs in as {@code logins[i % n]} with HTTP Basic,
 * or not at all when there are no logins. A call counts only when the answer is HTTP 200 and
 * carries {@code successMarker} (for submitJob: the job id, which the server returns after the job
 * is committed to the job store).
 */
final class ClosedLoopLoad {
  record Login(String user, String password) {
    String header() {
      return "Basic "
          + Base64.getEncoder()
              .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** What one run measured; {@code firstError} says what the first failed call got, or is empty. */
  record Result(
      int clients,
      long calls,
      double perSecond,
      LatencySummary latency,
      long errors,
      String firstError) {}

  private final URI endpoint;
  private final SSLContext tls;
  private final List<Login> logins;
  private final byte[] envelope;
  private final String successMarker;

  /** {@code tls}: the context that trusts the server, or null for plain HTTP. */
  ClosedLoopLoad(
      String url, SSLContext tls, List<Login> logins, String operationBody, String successMarker) {
    this.endpoint = URI.create(url);
    this.tls = tls;
    this.logins = List.copyOf(logins);
    this.successMarker = successMarker;
    this.envelope =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:g=\"urn:gantry:jobmanagement:1\">"
                + "<s:Body>"
                + operationBody
                + "</s:Body></s:Envelope>")
            .getBytes(StandardCharsets.UTF_8);
  }

  /** Runs {@code clients} for {@code warmUp} (not counted), then measures for {@code measure}. */
  Result run(int clients, Duration warmUp, Duration measure) throws InterruptedException {
    long start = System.nanoTime() + warmUp.toNanos();
    long end = start + measure.toNanos();
    List<long[]> latencies = new ArrayList<>();
    List<int[]> counts = new ArrayList<>();
    AtomicLong errors = new AtomicLong();
    AtomicReference<String> firstError = new AtomicReference<>("");
    CountDownLatch done = new CountDownLatch(clients);
    for (int i = 0; i < clients; i++) {
      long[] mine = new long[2_000_000 / clients + 1000];
      int[] n = new int[1];
      latencies.add(mine);
      counts.add(n);
      Login login = logins.isEmpty() ? null : logins.get(i % logins.size());
      Thread t =
          new Thread(
              () -> {
                try {
                  clientLoop(login, start, end, mine, n, errors, firstError);
                } finally {
                  done.countDown();
                }
              },
              "bench-client-" + i);
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
    return new Result(
        clients,
        total,
        total / (measure.toNanos() / 1e9),
        LatencySummary.of(all),
        errors.get(),
        firstError.get());
  }

  private void clientLoop(
      Login login,
      long start,
      long end,
      long[] latencies,
      int[] count,
      AtomicLong errors,
      AtomicReference<String> firstError) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .proxy(HttpClient.Builder.NO_PROXY)
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10));
    if (tls != null) {
      builder.sslContext(tls);
    }
    HttpClient http = builder.build();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "text/xml; charset=utf-8")
            .header("SOAPAction", "\"\"")
            .POST(HttpRequest.BodyPublishers.ofByteArray(envelope));
    if (login != null) {
      request.header("Authorization", login.header());
    }
    HttpRequest prepared = request.build();
    long now;
    while ((now = System.nanoTime()) < end) {
      try {
        HttpResponse<String> response = http.send(prepared, HttpResponse.BodyHandlers.ofString());
        long took = System.nanoTime() - now;
        if (response.statusCode() != 200 || !response.body().contains(successMarker)) {
          errors.incrementAndGet();
          String body = response.body();
          firstError.compareAndSet(
              "",
              "HTTP "
                  + response.statusCode()
                  + ": "
                  + body.substring(0, Math.min(300, body.length())).replaceAll("\\s+", " "));
        } else if (now + took >= start && now + took <= end && count[0] < latencies.length) {
          latencies[count[0]++] = took; // completed inside the measured window
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        errors.incrementAndGet();
        firstError.compareAndSet("", e.toString());
      }
    }
  }
}
