package io.gantry.testing.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

/**
 * The server's password key pair (docs/security.md: {@code data.dir/keys/password-key.pk8} and
 * {@code password-key.pub.pem}, RSA 3072), made once per test JVM and placed in the data directory
 * of every test server that has none, as an operator who restores a data directory's keys does. A
 * server makes the pair itself on a first start, but its JVM runs C1 only (to start fast), where
 * finding two 1536-bit primes takes one to four seconds of CPU, and test servers start a hundred
 * times and more in one run. Every server of one test JVM decrypts the same {@code ENC(...)}
 * values; no test needs two servers to differ in this.
 */
final class PasswordKeys {
  private static final int BITS = 3072;
  private static KeyPair pair;

  private PasswordKeys() {}

  /** Writes the key pair into {@code dataDir/keys/} unless a private key is there already. */
  static void place(Path dataDir) {
    Path keys = dataDir.resolve("keys");
    Path privateFile = keys.resolve("password-key.pk8");
    if (Files.exists(privateFile)) {
      return;
    }
    try {
      KeyPair keyPair = keyPair();
      // as the server makes them (PrivateDataDirectory): the directory 0700, its files 0600
      if (!Files.isDirectory(keys)) {
        Files.createDirectories(keys);
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rwx------"));
      }
      // the public key first: the private key's presence means the pair is complete
      ownerOnly(
          keys.resolve("password-key.pub.pem"),
          ("-----BEGIN PUBLIC KEY-----\n"
                  + Base64.getMimeEncoder(64, new byte[] {'\n'})
                      .encodeToString(keyPair.getPublic().getEncoded())
                  + "\n-----END PUBLIC KEY-----\n")
              .getBytes(StandardCharsets.US_ASCII));
      ownerOnly(privateFile, keyPair.getPrivate().getEncoded());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot place the server's password key pair", e);
    }
  }

  private static void ownerOnly(Path file, byte[] content) throws IOException {
    Files.write(file, new byte[0]);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Files.write(file, content);
  }

  private static synchronized KeyPair keyPair() {
    if (pair == null) {
      try {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(BITS);
        pair = generator.generateKeyPair();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("RSA is part of every JDK", e);
      }
    }
    return pair;
  }
}
