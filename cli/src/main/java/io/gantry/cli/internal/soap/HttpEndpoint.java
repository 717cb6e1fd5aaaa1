package io.gantry.cli.internal.soap;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * One SOAP endpoint over HTTP(S), through the JDK's own HTTP client: no SOAP stack to load. Keeps
 * connections (and TLS sessions) alive between the calls of one command, as the JDK does for every
 * HttpURLConnection. The credential goes in the Authorization header of every request: HTTP Basic
 * or a bearer session token (RFC 6750), never in a URL.
 *
 * @param url the endpoint, e.g. {@code https://host:8443/services/JobManagement}
 * @param tls the socket factory for https (it decides which certificates are trusted); null for the
 *     JDK's default
 * @param authorization the Authorization header's value, or null
 */
public record HttpEndpoint(
    String url,
    SSLSocketFactory tls,
    String authorization,
    int connectTimeoutMillis,
    int readTimeoutMillis) {

  /** The Authorization value for HTTP Basic (RFC 7617, UTF-8). */
  public static String basic(String user, String password) {
    String pair = user + ":" + (password == null ? "" : password);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  /** The Authorization value for a session token (RFC 6750). */
  public static String bearer(String token) {
    return "Bearer " + token;
  }

  @Override
  public String toString() {
    return "HttpEndpoint[" + url + "]"; // never the credential
  }

  /** What the server answered: its status, body and WWW-Authenticate challenge. */
  @SuppressWarnings("ArrayRecordComponent") // a carrier read once, never compared or hashed
  record Answer(int status, String reasonPhrase, byte[] body, String challenge) {}

  /** POSTs a SOAP 1.1 envelope and reads the whole answer (also an error status's body). */
  Answer post(byte[] envelope, String soapAction) throws IOException {
    HttpURLConnection http = open();
    http.setRequestMethod("POST");
    http.setDoOutput(true);
    http.setConnectTimeout(connectTimeoutMillis);
    http.setReadTimeout(readTimeoutMillis);
    http.setInstanceFollowRedirects(false); // a redirect would resend the credential elsewhere
    http.setRequestProperty("Content-Type", "text/xml; charset=UTF-8");
    http.setRequestProperty("Accept", "text/xml");
    http.setRequestProperty("SOAPAction", "\"" + soapAction + "\"");
    if (authorization != null) {
      http.setRequestProperty("Authorization", authorization);
    }
    http.setFixedLengthStreamingMode(envelope.length);
    try (OutputStream out = http.getOutputStream()) {
      out.write(envelope);
    }
    int status = http.getResponseCode();
    byte[] body;
    try (InputStream in = status >= 400 ? http.getErrorStream() : http.getInputStream()) {
      body = in == null ? new byte[0] : in.readAllBytes();
    }
    return new Answer(
        status, http.getResponseMessage(), body, http.getHeaderField("WWW-Authenticate"));
  }

  private HttpURLConnection open() throws IOException {
    URL target = URI.create(url).toURL();
    HttpURLConnection http = (HttpURLConnection) target.openConnection();
    if (http instanceof HttpsURLConnection https && tls != null) {
      https.setSSLSocketFactory(tls);
    }
    return http;
  }
}
