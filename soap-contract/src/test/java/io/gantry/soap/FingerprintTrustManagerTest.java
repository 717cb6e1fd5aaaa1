package io.gantry.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Certificates made by the JDK's keytool, as gantry-server makes its own. */
class FingerprintTrustManagerTest {
  @TempDir static Path dir;
  static X509Certificate server;
  static X509Certificate other;

  @BeforeAll
  static void certificates() throws Exception {
    server = selfSigned("server");
    other = selfSigned("other");
  }

  @Test
  void theCertificateWithThePinnedFingerprintIsTrusted() throws Exception {
    new FingerprintTrustManager(FingerprintTrustManager.fingerprintOf(server))
        .checkServerTrusted(new X509Certificate[] {server}, "RSA");
  }

  @Test
  void anotherCertificateIsRefusedNamingItsFingerprint() throws Exception {
    var trust = new FingerprintTrustManager(FingerprintTrustManager.fingerprintOf(server));
    CertificateException e =
        assertThrows(
            CertificateException.class,
            () -> trust.checkServerTrusted(new X509Certificate[] {other}, "RSA"));
    assertTrue(
        e.getMessage().contains(FingerprintTrustManager.fingerprintOf(other)), e.getMessage());
  }

  @Test
  void aFingerprintWithoutColonsOrInLowerCaseMeansTheSameCertificate() throws Exception {
    String printed = FingerprintTrustManager.fingerprintOf(server);
    String typed = printed.replace(":", "").toLowerCase(Locale.ROOT);
    assertEquals(printed, FingerprintTrustManager.canonical(typed));
    new FingerprintTrustManager(typed).checkServerTrusted(new X509Certificate[] {server}, "RSA");
  }

  @Test
  void somethingThatIsNotASha256FingerprintIsRefusedAtOnce() {
    assertThrows(IllegalArgumentException.class, () -> new FingerprintTrustManager("AB:CD"));
  }

  @Test
  void clientsAreNeverTrustedByIt() throws Exception {
    var trust = new FingerprintTrustManager(FingerprintTrustManager.fingerprintOf(server));
    assertThrows(
        CertificateException.class,
        () -> trust.checkClientTrusted(new X509Certificate[] {server}, "RSA"));
  }

  private static X509Certificate selfSigned(String name) throws Exception {
    Path store = dir.resolve(name + ".p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=" + name,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool did not finish");
    assertEquals(
        0,
        p.exitValue(),
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    return (X509Certificate) keys.getCertificate(name);
  }
}
