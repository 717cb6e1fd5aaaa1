package io.gantry.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The certificate an https server presents, fetched with a TLS handshake alone, so that {@code
 * gantry login} can show its fingerprint to the user before trusting it. Nothing is sent over that
 * connection: the password goes only over a later one that trusts exactly the certificate the user
 * confirmed.
 */
final class ServerCertificate {
  private static final int TIMEOUT_MILLIS = 10_000;

  private ServerCertificate() {}

  /** The certificate the server at {@code serverUrl} (an https URL) presents. */
  static X509Certificate presentedBy(String serverUrl) throws IOException {
    URI uri = URI.create(serverUrl.strip());
    if (uri.getHost() == null) {
      throw new IOException("no host in " + serverUrl);
    }
    int port = uri.getPort() < 0 ? 443 : uri.getPort();
    AtomicReference<X509Certificate> presented = new AtomicReference<>();
    try (SSLSocket socket = (SSLSocket) context(presented).getSocketFactory().createSocket()) {
      socket.connect(new InetSocketAddress(uri.getHost(), port), TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      socket.startHandshake();
    }
    if (presented.get() == null) {
      throw new IOException("the server at " + serverUrl + " presented no certificate");
    }
    return presented.get();
  }

  /** A TLS context that records the server's certificate and accepts it for this handshake only. */
  private static SSLContext context(AtomicReference<X509Certificate> presented) throws IOException {
    X509TrustManager recorder =
        new X509TrustManager() {
          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {
            if (chain != null && chain.length > 0) {
              presented.set(chain[0]);
            }
          }

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("this trust manager only records servers");
          }

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {recorder}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("no TLS in this Java runtime: " + e.getMessage(), e);
    }
  }
}
