package io.gantry.soap;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts exactly the server certificate with the SHA-256 fingerprint gantry-server printed at
 * start: how the command line ({@code --server-fingerprint} or {@code GANTRY_SERVER_FINGERPRINT})
 * and the tests' clients reach a server with a self-signed certificate without a "trust everything"
 * switch. The fingerprint may be written with or without colons, in either case. The server prints
 * its fingerprint with {@link #fingerprintOf}, so both sides agree on one form.
 */
public final class FingerprintTrustManager implements X509TrustManager {
  private final byte[] expected;

  public FingerprintTrustManager(String sha256Fingerprint) {
    this.expected = parse(sha256Fingerprint);
  }

  /** The fingerprint's bytes; IllegalArgumentException when it is not 64 hexadecimal digits. */
  public static byte[] parse(String sha256Fingerprint) {
    String hex = sha256Fingerprint.replace(":", "").strip().toLowerCase(Locale.ROOT);
    if (!hex.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException(
          "a SHA-256 fingerprint is 64 hexadecimal digits (colons allowed)");
    }
    return HexFormat.of().parseHex(hex);
  }

  /** The fingerprint as gantry-server prints it: colon-separated upper-case hex. */
  public static String canonical(String sha256Fingerprint) {
    return format(parse(sha256Fingerprint));
  }

  /** SHA-256 of the certificate's DER encoding, as gantry-server prints it. */
  public static String fingerprintOf(X509Certificate certificate) throws CertificateException {
    return format(digest(certificate));
  }

  private static String format(byte[] digest) {
    return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
  }

  private static byte[] digest(X509Certificate certificate) throws CertificateException {
    try {
      return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new CertificateException(e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the server sent no certificate");
    }
    byte[] actual = digest(chain[0]);
    if (!MessageDigest.isEqual(expected, actual)) {
      throw new CertificateException(
          "the server's certificate has SHA-256 fingerprint "
              + format(actual)
              + ", not the one pinned");
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("this trust manager only checks servers");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
