package io.gantry.server.internal.notify;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Posts one CloudEvent to one webhook: HTTPS only, to a host on notify.allowed-hosts (checked as
 * staging checks its hosts), never following a redirect (a 3xx is a failed delivery: following it
 * could lead off the allowed list), signed with {@link SigningKey}.
 */
final class WebhookSender {
  static final String SIGNATURE_HEADER = "Gantry-Signature";
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final WebhookRule rule;
  private final SigningKey key;
  private final HttpClient client;
  private final Clock clock;
  private volatile CompletableFuture<?> inFlight;

  /**
   * @param allowedHosts notify.allowed-hosts
   * @param trustStore the CA certificates receivers are checked against; null: the JDK's
   */
  WebhookSender(List<String> allowedHosts, SigningKey key, KeyStore trustStore, Clock clock) {
    this.rule = WebhookRule.of(allowedHosts);
    this.key = key;
    this.clock = clock;
    HttpClient.Builder builder =
        HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER);
    if (trustStore != null) {
      builder.sslContext(sslContext(trustStore));
    }
    this.client = builder.build();
  }

  /** Why {@code url} may not be sent to, or empty; a refused target is never contacted. */
  Optional<String> refusal(String url) {
    return rule.problem(url);
  }

  /**
   * Posts {@code json}; returns empty when the receiver answered 2xx, else what went wrong.
   *
   * @throws InterruptedException when the server stops meanwhile
   */
  Optional<String> post(String url, String json) throws InterruptedException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT)
            .header("Content-Type", CloudEvent.MEDIA_TYPE)
            .header(SIGNATURE_HEADER, key.signature(clock.instant().getEpochSecond(), body))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    CompletableFuture<HttpResponse<Void>> exchange =
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    inFlight = exchange;
    try {
      int status = exchange.get().statusCode();
      if (status >= 200 && status < 300) {
        return Optional.empty();
      }
      if (status >= 300 && status < 400) {
        return Optional.of(url + " answered " + status + " (a redirect, which is never followed)");
      }
      return Optional.of(url + " answered " + status);
    } catch (CancellationException e) {
      throw new InterruptedException("the server stops");
    } catch (ExecutionException e) {
      return Optional.of(url + ": " + e.getCause());
    } finally {
      inFlight = null;
    }
  }

  /**
   * Abandons the request in flight, if any (the server stops): the event stays undelivered for the
   * next start. The thread is not interrupted, since an interrupt during its job-store I/O could
   * close the store's files.
   */
  void abort() {
    CompletableFuture<?> exchange = inFlight;
    if (exchange != null) {
      exchange.cancel(true);
    }
  }

  private static SSLContext sslContext(KeyStore trustStore) {
    try {
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trustStore);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the trust store cannot be used: " + e.getMessage(), e);
    }
  }
}
