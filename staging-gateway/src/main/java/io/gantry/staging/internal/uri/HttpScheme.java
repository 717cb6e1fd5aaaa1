package io.gantry.staging.internal.uri;

import io.gantry.staging.Secret;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriStagingPolicy;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code http:} and {@code https:} with the JDK's client: GET to stage in, PUT to stage out.
 *
 * <ol>
 *   <li>Certificates are checked against the operator's trust store, or the JDK's; host names are
 *       verified (the JDK's default, never turned off).
 *   <li>Redirects are followed by hand, at most {@link #MAX_REDIRECTS}, and each hop must pass the
 *       host rule; an https URI is never redirected to http.
 *   <li>A password is sent only over https (Basic), never in clear over http.
 *   <li>5xx, 408 and 429 answers and connection failures may be retried; other answers are final.
 * </ol>
 */
public final class HttpScheme implements UriScheme {
  /** Browsers follow about 20; staging needs a move or two, and each hop is a host check. */
  static final int MAX_REDIRECTS = 5;

  private final UriStagingPolicy policy;
  private final HttpClient client;

  public HttpScheme(UriStagingPolicy policy, Duration connectTimeout) {
    this.policy = policy;
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (policy.trustStore() != null) {
      builder.sslContext(sslContext(policy));
    }
    this.client = builder.build();
  }

  static SSLContext sslContext(UriStagingPolicy policy) {
    try {
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(policy.trustStore());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the staging trust store cannot be used: " + e.getMessage(), e);
    }
  }

  @Override
  public long download(UriTransfer transfer, UriLogin login, OutputStream out, StepContext context)
      throws UriFailure, IOException, InterruptedException {
    HttpResponse<InputStream> response =
        send(transfer, login, HttpRequest.BodyPublishers.noBody(), "GET", context);
    try (InputStream body = response.body()) {
      if (response.statusCode() != 200) {
        throw failure(transfer, response.statusCode());
      }
      return body.transferTo(out);
    }
  }

  /**
   * A HEAD request: Content-Length (or unknown) and the entity tag, else Last-Modified. Without
   * either, or without a 200 answer, the server gives no way to see a change, so the file is not
   * cached.
   */
  @Override
  public Optional<RemoteVersion> version(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure, IOException, InterruptedException {
    HttpResponse<InputStream> response =
        send(transfer, login, HttpRequest.BodyPublishers.noBody(), "HEAD", context);
    try (InputStream body = response.body()) {
      if (response.statusCode() != 200) {
        // a server without HEAD (405, 501), or one refusing it: no version, so no cache; the GET
        // then meets the same refusal and reports it with its retries
        return Optional.empty();
      }
      long size = response.headers().firstValueAsLong("Content-Length").orElse(-1);
      Optional<String> tag = response.headers().firstValue("ETag");
      Optional<String> modified = response.headers().firstValue("Last-Modified");
      if (tag.isPresent() && !tag.get().startsWith("W/")) {
        return Optional.of(new RemoteVersion(size, "etag " + tag.get()));
      }
      return modified.map(m -> new RemoteVersion(size, "last-modified " + m));
    }
  }

  @Override
  public long upload(
      UriTransfer transfer,
      UriLogin login,
      SeekableByteChannel file,
      long size,
      StepContext context)
      throws UriFailure, IOException, InterruptedException {
    // the body is read once per request (a redirect resends it), always from the file's start
    HttpRequest.BodyPublisher content =
        HttpRequest.BodyPublishers.fromPublisher(
            HttpRequest.BodyPublishers.ofInputStream(() -> fromStart(file)), size);
    HttpResponse<InputStream> response = send(transfer, login, content, "PUT", context);
    try (InputStream body = response.body()) {
      int status = response.statusCode();
      if (status != 200 && status != 201 && status != 204) {
        throw failure(transfer, status);
      }
      return size;
    }
  }

  private static InputStream fromStart(SeekableByteChannel file) {
    try {
      file.position(0);
      return java.nio.channels.Channels.newInputStream(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private HttpResponse<InputStream> send(
      UriTransfer transfer,
      UriLogin login,
      HttpRequest.BodyPublisher body,
      String method,
      StepContext context)
      throws UriFailure, IOException, InterruptedException {
    URI uri = withoutUserInfo(transfer.uri());
    if (login != null && !"https".equalsIgnoreCase(uri.getScheme())) {
      throw UriFailure.permanent(
          "a password is sent only over https, not to " + transfer.describe(), null);
    }
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      context.checkCancelled();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri).method(method, body).timeout(Duration.ofMinutes(30));
      if (login != null) {
        request.header("Authorization", basic(login));
      }
      HttpResponse<InputStream> response = exchange(request.build());
      int status = response.statusCode();
      if (status < 300 || status >= 400 || status == 304) {
        return response;
      }
      response.body().close();
      uri = redirectTarget(transfer, uri, response);
    }
    throw UriFailure.permanent(
        transfer.describe() + ": more than " + MAX_REDIRECTS + " redirects", null);
  }

  private HttpResponse<InputStream> exchange(HttpRequest request)
      throws UriFailure, InterruptedException {
    String where = request.uri().getHost() + ":" + port(request.uri());
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (SSLException e) {
      throw UriFailure.permanent(
          "TLS with "
              + where
              + " failed (certificate not trusted or wrong host"
              + " name?): "
              + e.getMessage(),
          e);
    } catch (IOException e) {
      // one text for refused, filtered, reset and timed out: staging must not probe the network
      throw UriFailure.retryable("could not connect to " + where, e);
    }
  }

  private URI redirectTarget(UriTransfer transfer, URI from, HttpResponse<?> response)
      throws UriFailure {
    Optional<String> location = response.headers().firstValue("Location");
    if (location.isEmpty()) {
      throw UriFailure.permanent(
          transfer.describe() + " answered " + response.statusCode() + " without a Location", null);
    }
    URI to = from.resolve(location.get());
    String scheme = to.getScheme() == null ? "" : to.getScheme().toLowerCase(java.util.Locale.ROOT);
    if (!scheme.equals("https")
        && !(scheme.equals("http") && "http".equalsIgnoreCase(from.getScheme()))) {
      throw UriFailure.permanent(
          transfer.describe()
              + " redirects to a "
              + scheme
              + ": URI; only a redirect"
              + " to http(s) that does not leave https is followed",
          null);
    }
    Optional<String> problem = policy.hosts().problem(to.getHost(), port(to));
    if (problem.isPresent()) {
      throw UriFailure.permanent(
          transfer.describe() + " redirects to another host: " + problem.get(), null);
    }
    return to;
  }

  private static UriFailure failure(UriTransfer transfer, int status) {
    String message = transfer.describe() + " answered HTTP " + status;
    return status >= 500 || status == 408 || status == 429
        ? UriFailure.retryable(message, null)
        : UriFailure.permanent(message, null);
  }

  private static String basic(UriLogin login) {
    Secret password = login.credentials().passwordOrNull();
    if (password == null) {
      throw new IllegalArgumentException("http staging logs in with a password, not a private key");
    }
    char[] clear = password.reveal();
    try {
      byte[] pair = (login.user() + ":" + new String(clear)).getBytes(StandardCharsets.UTF_8);
      return "Basic " + Base64.getEncoder().encodeToString(pair);
    } finally {
      java.util.Arrays.fill(clear, '\0');
    }
  }

  private static URI withoutUserInfo(URI uri) {
    try {
      return new URI(
          uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), uri.getQuery(), null);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static int port(URI uri) {
    return uri.getPort() > 0
        ? uri.getPort()
        : UriTransfer.defaultPort(uri.getScheme().toLowerCase(java.util.Locale.ROOT));
  }
}
