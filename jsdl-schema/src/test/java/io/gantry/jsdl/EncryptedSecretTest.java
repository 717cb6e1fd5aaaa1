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
  private static final SecretBinding ALICE_DB =
      SecretBinding.jdbc("alice", "jdbc:postgresql://db.bank:5432/risk");
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
  void encryptedValueSaysItIsBoundAndDecryptsToTheSecretForItsUserAndDestination() {
    char[] secret = "pä$$wörd with spaces ∑".toCharArray();
    String value = EncryptedSecret.encrypt(server.getPublic(), secret, ALICE_DB);
    assertTrue(value.startsWith("ENC(RSA-OAEP-256-v2:alice:") && value.endsWith(")"), value);
    assertTrue(EncryptedSecret.problem(value).isEmpty(), "the parser accepts it");
    assertEquals(
        ALICE_DB, EncryptedSecret.parse(value).binding(), "user and destination are readable");
    assertArrayEquals(secret, EncryptedSecret.decrypt(server.getPrivate(), value, ALICE_DB));
  }

  @Test
  void encryptingTwiceGivesDifferentValues() {
    char[] secret = "same".toCharArray();
    assertFalse(
        EncryptedSecret.encrypt(server.getPublic(), secret, ALICE_DB)
            .equals(EncryptedSecret.encrypt(server.getPublic(), secret, ALICE_DB)),
        "OAEP is randomised");
  }

  @Test
  void aValueUsedForAnotherUserIsRefusedNamingBoth() {
    String value = EncryptedSecret.encrypt(server.getPublic(), "hunter2".toCharArray(), ALICE_DB);
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                EncryptedSecret.decrypt(
                    server.getPrivate(),
                    value,
                    SecretBinding.jdbc("mallory", "jdbc:postgresql://db.bank:5432/risk")));
    assertTrue(
        e.getMessage()
            .startsWith("was encrypted for user alice, not for mallory who owns this job"),
        e.getMessage());
  }

  @Test
  void aValueUsedForAnotherDestinationIsRefusedNamingBoth() {
    String value = EncryptedSecret.encrypt(server.getPublic(), "hunter2".toCharArray(), ALICE_DB);
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                EncryptedSecret.decrypt(
                    server.getPrivate(),
                    value,
                    SecretBinding.jdbc("alice", "jdbc:postgresql://127.0.0.1:5433/risk")));
    assertTrue(
        e.getMessage()
            .startsWith(
                "was encrypted for destination jdbc:postgresql://db.bank:5432/risk, not for"
                    + " jdbc:postgresql://127.0.0.1:5433/risk"),
        e.getMessage());
  }

  @Test
  void rewritingTheClearUserAndDestinationDoesNotMakeAValueDecrypt() {
    String value = EncryptedSecret.encrypt(server.getPublic(), "hunter2".toCharArray(), ALICE_DB);
    SecretBinding mallorys = SecretBinding.of("mallory", "mallory@evil.example:22");
    String relabelled = EncryptedSecret.format(mallorys, EncryptedSecret.parse(value).ciphertext());
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EncryptedSecret.decrypt(server.getPrivate(), relabelled, mallorys));
    assertTrue(
        e.getMessage().startsWith("does not decrypt with this server's key for user mallory"),
        e.getMessage());
  }

  @Test
  void alteredCiphertextIsRefusedWithoutRevealingAnything() {
    String value = EncryptedSecret.encrypt(server.getPublic(), "hunter2".toCharArray(), ALICE_DB);
    byte[] bytes = EncryptedSecret.parse(value).ciphertext();
    bytes[100] ^= 0x01;
    String tampered = EncryptedSecret.format(ALICE_DB, bytes);
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EncryptedSecret.decrypt(server.getPrivate(), tampered, ALICE_DB));
    assertFalse(e.getMessage().contains("hunter2"));
    assertTrue(e.getMessage().contains("(made for another server, or altered)"), e.getMessage());
  }

  @Test
  void valueForAnotherServerIsRefused() {
    String value =
        EncryptedSecret.encrypt(otherServer.getPublic(), "hunter2".toCharArray(), ALICE_DB);
    assertThrows(
        IllegalArgumentException.class,
        () -> EncryptedSecret.decrypt(server.getPrivate(), value, ALICE_DB));
  }

  @Test
  void theOldUnboundFormIsRefusedWithHowToReEncrypt() {
    String value = "ENC(RSA-OAEP-256:" + Base64.getEncoder().encodeToString(new byte[384]) + ")";
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EncryptedSecret.decrypt(server.getPrivate(), value, ALICE_DB));
    assertTrue(
        e.getMessage().contains("old form")
            && e.getMessage().contains("--for-user USER --for-destination"),
        e.getMessage());
  }

  @Test
  void valueOfTheWrongLengthIsRefusedBeforeDecrypting() {
    String value = EncryptedSecret.format(ALICE_DB, new byte[100]);
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EncryptedSecret.decrypt(server.getPrivate(), value, ALICE_DB));
    assertEquals(
        "has a ciphertext of 100 bytes; a value from a 3072-bit or 4096-bit key has 384 or 512 bytes",
        e.getMessage());
  }

  @Test
  void sshDestinationsAreCanonical() {
    assertEquals("risk@db.bank:22", SecretBinding.canonical("risk@DB.Bank"));
    assertEquals("risk@db.bank:2222", SecretBinding.canonical(" risk@db.bank:2222 "));
    assertEquals("risk@[::1]:22", SecretBinding.ssh("alice", "risk", "::1", 22).destination());
    assertEquals(
        SecretBinding.of("alice", "risk@DB.bank"),
        SecretBinding.ssh("alice", "risk", "db.BANK", 22));
    assertThrows(IllegalArgumentException.class, () -> SecretBinding.canonical("db.bank"));
    assertThrows(
        IllegalArgumentException.class, () -> SecretBinding.canonical("risk@db.bank:70000"));
  }

  @Test
  void jdbcDestinationsAreTheUrlAsWritten() {
    assertEquals(
        "jdbc:postgresql://DB.bank/risk?ssl=true&a=b",
        SecretBinding.canonical("  jdbc:postgresql://DB.bank/risk?ssl=true&a=b\n"));
    assertFalse(
        SecretBinding.jdbc("alice", "jdbc:postgresql://db.bank/risk")
            .equals(SecretBinding.jdbc("alice", "jdbc:postgresql://db.bank:5432/risk")),
        "no default port is assumed");
  }
}
