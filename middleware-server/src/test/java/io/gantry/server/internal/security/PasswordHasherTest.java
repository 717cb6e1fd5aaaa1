package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {
  private final PasswordHasher hasher = new PasswordHasher();

  @Test
  void theRightPasswordMatchesAndAWrongOneDoesNot() {
    String stored = hasher.hash("correct horse battery".toCharArray());
    assertTrue(hasher.verify("correct horse battery".toCharArray(), stored));
    assertFalse(hasher.verify("correct horse batterY".toCharArray(), stored));
    assertFalse(hasher.verify("".toCharArray(), stored));
  }

  @Test
  void theSamePasswordHashesDifferentlyEachTimeAndNeverAppearsInTheHash() {
    String a = hasher.hash("correct horse battery".toCharArray());
    String b = hasher.hash("correct horse battery".toCharArray());
    assertNotEquals(a, b, "a random salt each time");
    assertFalse(a.contains("correct"));
  }

  @Test
  void theHashNamesItsAlgorithmAndIterations() {
    String[] parts = hasher.hash("x".toCharArray()).split("\\$");
    assertTrue(
        parts[0].equals("pbkdf2-sha256") && Integer.parseInt(parts[1]) >= 210_000,
        String.join("$", parts));
    assertTrue(java.util.Base64.getDecoder().decode(parts[2]).length == 16, "16 bytes of salt");
  }

  @Test
  void aHashOfAnotherFormatMatchesNothing() {
    assertFalse(hasher.verify("x".toCharArray(), "plain:x"));
    assertFalse(hasher.verifyNobody("no user has this password".toCharArray()));
  }
}
