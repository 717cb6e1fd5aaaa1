package io.gantry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A fresh self-signed certificate for 127.0.0.1 and localhost, made by the JDK's keytool (the JDK
 * has no public API to sign one), for TLS servers started by tests; {@link #trustStore()} is what a
 * client must trust to reach them.
 */
public final class TestKeystore {
  private static final char[] PASSWORD = "test-store".toCharArray();
  private final Path file;
  private final KeyStore keyStore;

  private TestKeystore(Path file, KeyStore keyStore) {
    this.file = file;
    this.keyStore = keyStore;
  }

  /** Generates the key pair and certificate into {@code directory}. */
  public static TestKeystore generate(Path directory) {
    Path file = directory.resolve("test-tls.p12");
    try {
      Process p =
          new ProcessBuilder(
                  List.of(
                      Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                      // C1 only: half the CPU of a one-off keytool (as TlsKeystore's)
                      "-J-XX:TieredStopAtLevel=1",
                      "-J-XX:+UseSerialGC",
                      "-genkeypair",
                      "-alias",
                      "test",
                      "-keyalg",
                      "EC",
                      "-groupname",
                      "secp256r1",
                      "-validity",
                      "2",
                      "-dname",
                      "CN=localhost",
                      "-ext",
                      "SAN=IP:127.0.0.1,DNS:localhost",
                      "-storetype",
                      "PKCS12",
                      "-keystore",
                      file.toString(),
                      "-storepass",
                      new String(PASSWORD)))
              .redirectErrorStream(true)
              .start();
      String out =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IllegalStateException("keytool failed: " + out);
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(file)) {
        store.load(in, PASSWORD);
      }
      return new TestKeystore(file, store);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a test certificate", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while making a test certificate", e);
    }
  }

  /** The key store holding the private key (PKCS12), and its password. */
  public Path file() {
    return file;
  }

  public char[] password() {
    return PASSWORD.clone();
  }

  /** A server-side SSL context presenting the certificate. */
  public SSLContext serverContext() {
    try {
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keyStore, PASSWORD);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A trust store with the certificate only (no private key). */
  public KeyStore trustStore() {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("test", keyStore.getCertificate("test"));
      return trust;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes {@link #trustStore()} to {@code file} with {@code password}, for configuration files.
   */
  public void writeTrustStore(Path target, char[] password) {
    try (var out = Files.newOutputStream(target)) {
      trustStore().store(out, password);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
