package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.internal.security.PasswordKeyPair;
import io.gantry.testing.server.GantryTestServer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry encrypt-password: values the real server decrypts, the secret read from standard input.
 */
@ExtendWith(CliServers.Plain.class)
class EncryptPasswordTest {
  @TempDir Path dir;

  private static Result withStandardInput(String input, GantryRun gantry, String... args) {
    InputStream saved = System.in;
    System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
    try {
      return gantry.run(args);
    } finally {
      System.setIn(saved);
    }
  }

  private static final String[] FOR = {
    "--for-user", "alice", "--for-destination", "risk@DB.example"
  };
  private static final SecretBinding ALICE_DB = SecretBinding.of("alice", "risk@db.example:22");

  private static String[] encrypt(String... args) {
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(args));
    all.addAll(java.util.List.of(FOR));
    return all.toArray(String[]::new);
  }

  private static PasswordKeyPair serverKey(GantryTestServer server) throws Exception {
    return PasswordKeyPair.loadOrCreate(server.dataDir().resolve("keys"));
  }

  @Test
  void valueFromStandardInputDecryptsOnTheServerToTheSecretWithoutItsLineBreak(
      GantryTestServer server) throws Exception {
    Result result =
        withStandardInput(
            "Sëcret pass phrase\r\nsecond line ignored\n",
            new GantryRun(server.baseUrl()),
            encrypt("encrypt-password"));
    assertEquals(0, result.exitCode(), result.toString());
    String value = result.out().strip();
    assertTrue(value.startsWith("ENC(RSA-OAEP-256-v2:alice:"), value);
    assertArrayEquals(
        "Sëcret pass phrase".toCharArray(), serverKey(server).decrypt(value, ALICE_DB));
    assertEquals(
        "encrypted for the key "
            + serverKey(server).fingerprint()
            + ", for jobs of user alice sending it"
            + " to risk@db.example:22\n",
        result.err());
  }

  @Test
  void theValueDecryptsForNoOtherUserAndNoOtherDestination(GantryTestServer server)
      throws Exception {
    Result result =
        withStandardInput("secret\n", new GantryRun(server.baseUrl()), encrypt("encrypt-password"));
    String value = result.out().strip();
    PasswordKeyPair key = serverKey(server);
    assertTrue(
        key.problem(value, SecretBinding.of("bob", "risk@db.example:22"))
            .contains("for user alice"));
    assertTrue(
        key.problem(value, SecretBinding.of("alice", "risk@db.example:2222"))
            .contains("for destination"));
  }

  @Test
  void withoutUserOrDestinationNothingIsEncrypted(GantryTestServer server) {
    Result result =
        withStandardInput(
            "secret\n", new GantryRun(server.baseUrl()), "encrypt-password", "--for-user", "alice");
    assertEquals(2, result.exitCode(), result.toString());
    assertTrue(result.err().contains("--for-destination"), result.toString());
    Result bad =
        withStandardInput(
            "secret\n",
            new GantryRun(server.baseUrl()),
            "encrypt-password",
            "--for-user",
            "alice",
            "--for-destination",
            "db.example");
    assertEquals(2, bad.exitCode(), bad.toString());
    assertEquals("", bad.out());
    assertTrue(
        bad.err().contains("neither a JDBC URL (jdbc:...) nor an SSH login user@host"),
        bad.toString());
  }

  @Test
  void aKeyWithAnotherFingerprintIsRefusedAndNothingIsPrinted(GantryTestServer server) {
    Result result =
        withStandardInput(
            "secret\n",
            new GantryRun(server.baseUrl()),
            encrypt("encrypt-password", "--fingerprint", "SHA256:00:11"));
    assertEquals(3, result.exitCode(), result.toString());
    assertEquals("", result.out());
    assertTrue(
        result.err().contains(", not SHA256:00:11; nothing was encrypted"), result.toString());
  }

  @Test
  void thePublishedFingerprintIsAccepted(GantryTestServer server) throws Exception {
    Result result =
        withStandardInput(
            "secret\n",
            new GantryRun(server.baseUrl()),
            encrypt(
                "--quiet", "encrypt-password", "--fingerprint", serverKey(server).fingerprint()));
    assertEquals(0, result.exitCode(), result.toString());
    assertEquals("", result.err());
    assertArrayEquals(
        "secret".toCharArray(), serverKey(server).decrypt(result.out().strip(), ALICE_DB));
  }

  @Test
  void aPemFileEncryptsOfflineWithoutTheServer(GantryTestServer server) throws Exception {
    Path pem = dir.resolve("server-key.pem");
    Files.writeString(pem, serverKey(server).publicKeyPem());
    Result result =
        withStandardInput(
            "offline\n",
            new GantryRun(CliServers.deadUrl()),
            encrypt("--json", "encrypt-password", "--public-key", pem.toString()));
    assertEquals(0, result.exitCode(), result.toString());
    String value = result.out().replaceAll("(?s).*\"value\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    assertArrayEquals("offline".toCharArray(), serverKey(server).decrypt(value, ALICE_DB));
    assertTrue(
        result.out().contains("\"destination\" : \"risk@db.example:22\"")
            || result.out().contains("\"destination\":\"risk@db.example:22\""),
        result.out());
    assertTrue(result.out().contains(serverKey(server).fingerprint()), result.out());
  }

  @Test
  void emptyStandardInputIsAUsageError(GantryTestServer server) {
    Result result =
        withStandardInput("", new GantryRun(server.baseUrl()), encrypt("encrypt-password"));
    assertEquals(new Result(2, "", "gantry: no password given on standard input\n"), result);
  }

  @Test
  void aPasswordTooLongForTheKeyIsRefusedClearly(GantryTestServer server) {
    Result result =
        withStandardInput(
            "x".repeat(400) + "\n", new GantryRun(server.baseUrl()), encrypt("encrypt-password"));
    assertEquals(2, result.exitCode(), result.toString());
    assertTrue(result.err().contains("too long to encrypt with this key"), result.toString());
  }
}
