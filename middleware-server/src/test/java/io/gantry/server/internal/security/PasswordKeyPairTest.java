package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PasswordKeyPairTest {
  @TempDir Path dataDir;

  @Test
  void firstStartCreatesAnOwnerOnly3072BitKeyThatLaterStartsReuse() throws Exception {
    Path keys = dataDir.resolve("keys");
    PasswordKeyPair first = PasswordKeyPair.loadOrCreate(keys);
    assertEquals(3072, first.bits());
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(keys.resolve("password-key.pk8"))));
    PasswordKeyPair again = PasswordKeyPair.loadOrCreate(keys);
    assertEquals(first.fingerprint(), again.fingerprint());
    assertTrue(
        first.fingerprint().matches("SHA256:([0-9a-f]{2}:){31}[0-9a-f]{2}"), first.fingerprint());
  }

  @Test
  void aClientEncryptingWithThePublishedPemReachesTheServer() throws Exception {
    PasswordKeyPair key = PasswordKeyPair.loadOrCreate(dataDir.resolve("keys"));
    PublicKey published =
        KeyFactory.getInstance("RSA")
            .generatePublic(new X509EncodedKeySpec(PasswordKeyPair.fromPem(key.publicKeyPem())));
    SecretBinding use = SecretBinding.of("alice", "risk@db.example:22");
    String value = EncryptedSecret.encrypt(published, "s3cret".toCharArray(), use);
    assertNull(key.problem(value, use));
    assertArrayEquals("s3cret".toCharArray(), key.decrypt(value, use));
  }

  @Test
  void keyReadableByOthersIsRefusedAtStart() throws Exception {
    Path keys = dataDir.resolve("keys");
    PasswordKeyPair.loadOrCreate(keys);
    Path privateKey = keys.resolve("password-key.pk8");
    Files.setPosixFilePermissions(privateKey, PosixFilePermissions.fromString("rw-r--r--"));
    var e = assertThrows(GeneralSecurityException.class, () -> PasswordKeyPair.loadOrCreate(keys));
    assertTrue(
        e.getMessage().contains("is readable by others (rw-r--r--); run: chmod 600"),
        e.getMessage());
  }
}
