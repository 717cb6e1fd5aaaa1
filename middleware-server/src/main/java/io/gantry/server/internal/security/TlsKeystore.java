package io.gantry.server.internal.security;

import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
import io.gantry.soap.FingerprintTrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The PKCS12 keystore holding the server's TLS key and certificate: a configured one in production,
 * or one generated on first start into the data directory.
 *
 * <p>The generated certificate is self-signed (EC P-256, ten years, SAN {@code ip:127.0.0.1},
 * {@code ip:::1}, {@code dns:localhost}); clients trust it by its SHA-256 fingerprint, which the
 * server prints at every start. It is made by the JDK's own {@code keytool}, run with an argument
 * array and the store password passed as a file ({@code -storepass:file}), never on a command line,
 * because the JDK has no public API to sign a certificate.
 */
public final class TlsKeystore {
  private static final String ALIAS = "gantry-server";
  private final Path file;
  private final char[] password;
  private final String fingerprint;

  private TlsKeystore(Path file, char[] password) throws IOException, GeneralSecurityException {
    this.file = file;
    this.password = password;
    this.fingerprint = fingerprintOf(load());
  }

  /** A configured keystore; its password was read from the configured file. */
  public static TlsKeystore configured(Path file, char[] password)
      throws IOException, GeneralSecurityException {
    return new TlsKeystore(file, password);
  }

  /** The keystore in {@code directory}, generated with a random password the first time. */
  public static TlsKeystore loadOrGenerate(Path directory)
      throws IOException, GeneralSecurityException {
    Path file = directory.resolve("keystore.p12");
    Path passwordFile = directory.resolve("keystore.password");
    if (!Files.exists(file)) {
      generate(directory, file, passwordFile);
    }
    return new TlsKeystore(
        file, Files.readString(passwordFile, StandardCharsets.UTF_8).strip().toCharArray());
  }

  private static void generate(Path directory, Path file, Path passwordFile) throws IOException {
    OwnerOnlyFiles.createDirectories(directory, OwnerOnlyFiles.DIRECTORY_MODE);
    OwnerOnlyFiles.write(
        passwordFile, new String(PasswordHasher.randomPassword()).getBytes(StandardCharsets.UTF_8));
    // keytool writes with the umask's mode: into a directory of its own that only this account
    // may enter, removed whatever happens, so neither a window nor a leftover of a wider mode
    Path workshop =
        Files.createTempDirectory(
            directory,
            ".keystore",
            PosixFilePermissions.asFileAttribute(OwnerOnlyFiles.DIRECTORY_MODE));
    try {
      generateInto(workshop.resolve("keystore.p12"), passwordFile, file);
    } finally {
      try (java.util.stream.Stream<Path> left = Files.list(workshop)) {
        for (Path f : left.toList()) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(workshop);
    }
  }

  private static void generateInto(Path partial, Path passwordFile, Path file) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                // a one-off JVM: C1 only halves keytool's CPU (1.7 -> 0.8 s), C2 never pays back
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC",
                "-genkeypair",
                "-alias",
                ALIAS,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "3650",
                "-dname",
                "CN=gantry-server",
                "-ext",
                "SAN=ip:127.0.0.1,ip:::1,dns:localhost",
                "-storetype",
                "PKCS12",
                "-keystore",
                partial.toString(),
                "-storepass:file",
                passwordFile.toString(),
                "-keypass:file",
                passwordFile.toString()));
    run(command);
    Files.setPosixFilePermissions(partial, OwnerOnlyFiles.FILE_MODE);
    // Renamed only when complete, so a crash during generation never leaves a half keystore.
    Files.move(partial, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static void run(List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (InputStream out = p.getInputStream()) {
      String text = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("keytool could not generate the TLS certificate: " + text.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted while generating the TLS certificate", e);
    }
  }

  private KeyStore load() throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password);
    }
    return store;
  }

  private static String fingerprintOf(KeyStore store) throws GeneralSecurityException, IOException {
    for (String alias : Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias)) {
        return fingerprint(store.getCertificate(alias));
      }
    }
    throw new IOException("the TLS keystore holds no private key with a certificate");
  }

  /**
   * SHA-256 of the certificate's DER encoding, as colon-separated upper-case hex (as keytool and
   * openssl print it).
   */
  public static String fingerprint(Certificate certificate) throws GeneralSecurityException {
    // the clients' trust manager computes the same digest; one definition keeps both sides in step
    return FingerprintTrustManager.fingerprintOf((X509Certificate) certificate);
  }

  public Path file() {
    return file;
  }

  /** The keystore password; for Jetty's SSL context only. */
  public String password() {
    return new String(password);
  }

  public String fingerprint() {
    return fingerprint;
  }
}
