package io.gantry.testing;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts exactly one server certificate, named by its SHA-256 fingerprint (as gantry-server prints
 * it at start): how the tests' clients trust a server with a self-signed certificate without
 * trusting everything, as the CLI does with its own copy of this class (the CLI must not depend
 * on the server, nor the server's tests on the CLI). The fingerprint may be written with or without colons, in either case.
 */
public final class FingerprintTrustManager implements X509TrustManager {
  private final byte[] expected;

  public FingerprintTrustManager(String sha256Fingerprint) {
    String hex = sha256Fingerprint.replace(":", "").strip().toLowerCase(Locale.ROOT);
    if (!hex.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("a SHA-256 fingerprint is 64 hexadecimal digits (colons allowed)");
    }
    this.expected = HexFormat.of().parseHex(hex);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the server sent no certificate");
    }
    byte[] actual;
    try {
      actual = MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded());
    } catch (GeneralSecurityException e) {
      throw new CertificateException(e);
    }
    if (!MessageDigest.isEqual(expected, actual)) {
      throw new CertificateException("the server's certificate has SHA-256 fingerprint "
          + HexFormat.ofDelimiter(":").withUpperCase().formatHex(actual) + ", not the one trusted");
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("this trust manager only checks servers");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
