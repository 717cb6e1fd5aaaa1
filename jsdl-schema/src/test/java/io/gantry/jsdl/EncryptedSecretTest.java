package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EncryptedSecretTest {
  private static KeyPair server;
  private static KeyPair otherServer;

  @BeforeAll
  static void keys() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(3072);
    server = rsa.generateKeyPair();
    otherServer = rsa.generateKeyPair();
  }

  @Test
  void encryptedValueHasTheParserFormAndDecryptsToTheSecret() {
    char[] secret = "pä$$wörd with spaces ∑".toCharArray();
    String value = EncryptedSecret.encrypt(server.getPublic(), secret);
    assertTrue(value.startsWith("ENC(RSA-OAEP-256:") && value.endsWith(")"), value);
    assertTrue(EncryptedSecret.problem(value).isEmpty(), "the parser accepts it");
    assertArrayEquals(secret, EncryptedSecret.decrypt(server.getPrivate(), value));
  }

  @Test
  void encryptingTwiceGivesDifferentValues() {
    char[] secret = "same".toCharArray();
    assertFalse(EncryptedSecret.encrypt(server.getPublic(), secret)
        .equals(EncryptedSecret.encrypt(server.getPublic(), secret)), "OAEP is randomised");
  }

  @Test
  void alteredCiphertextIsRefusedWithoutRevealingAnything() {
    String value = EncryptedSecret.encrypt(server.getPublic(), "hunter2".toCharArray());
    byte[] bytes = EncryptedSecret.ciphertext(value);
    bytes[100] ^= 0x01;
    String tampered = EncryptedSecret.format(bytes);
    var e = assertThrows(IllegalArgumentException.class,
        () -> EncryptedSecret.decrypt(server.getPrivate(), tampered));
    assertEquals("does not decrypt with this server's key (made for another server, or altered);"
        + " make a new value with `gantry encrypt-password`", e.getMessage());
  }

  @Test
  void valueForAnotherServerIsRefused() {
    String value = EncryptedSecret.encrypt(otherServer.getPublic(), "hunter2".toCharArray());
    assertThrows(IllegalArgumentException.class, () -> EncryptedSecret.decrypt(server.getPrivate(), value));
  }

  @Test
  void valueOfTheWrongLengthIsRefusedBeforeDecrypting() {
    String value = "ENC(RSA-OAEP-256:" + Base64.getEncoder().encodeToString(new byte[100]) + ")";
    var e = assertThrows(IllegalArgumentException.class, () -> EncryptedSecret.decrypt(server.getPrivate(), value));
    assertEquals("decodes to 100 bytes; a value from a 3072-bit or 4096-bit key has 384 or 512 bytes",
        e.getMessage());
  }
}
