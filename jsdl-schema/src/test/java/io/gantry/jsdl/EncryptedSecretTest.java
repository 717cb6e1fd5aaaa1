package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EncryptedSecretTest {
  @Test
  void aCiphertextOfKeyLengthRoundTripsThroughItsTextualForm() {
    byte[] ciphertext = JsdlDocuments.filled(512);
    String text = EncryptedSecret.format(ciphertext);
    assertTrue(text.startsWith("ENC(RSA-OAEP-256:") && text.endsWith(")"));
    assertArrayEquals(ciphertext, EncryptedSecret.ciphertext(" " + text + "\n"));
    assertTrue(EncryptedSecret.problem(text).isEmpty());
  }

  @Test
  void ciphertextsOfWeakKeysAreRefused() {
    String weak = EncryptedSecret.format(JsdlDocuments.filled(256)); // a 2048-bit key
    assertEquals("decodes to 256 bytes; a value from a 3072-bit or 4096-bit key has 384 or 512 bytes",
        assertThrows(IllegalArgumentException.class, () -> EncryptedSecret.ciphertext(weak)).getMessage());
  }
}
