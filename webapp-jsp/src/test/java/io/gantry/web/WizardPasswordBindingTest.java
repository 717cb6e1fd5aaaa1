package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.internal.security.PasswordKeyPair;
import io.gantry.testing.server.GantryTestServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A password typed into the wizard is encrypted when its step is posted, bound to the signed-in
 * user and to the stage's destination as posted with it: the JDBC URL, or user@host:port.
 */
class WizardPasswordBindingTest {
  private static final String TYPED = "typed into the wizard";
  @TempDir static Path dir;
  static GantryTestServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = WebTestServer.start(dir, Map.of("demo.enabled", "false"));
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static String encryptedValueOf(String kind, String fields) throws Exception {
    WebVisitor alice = new WebVisitor(server);
    assertEquals(302, alice.logIn(WebTestServer.ALICE).statusCode());
    String csrf = WebVisitor.token(alice.get("/wizard").body());
    assertEquals(
        302,
        alice.post("/wizard", "csrf=" + csrf + "&step=pre-staging&go=add:" + kind).statusCode());
    assertEquals(
        302,
        alice
            .post("/wizard", "csrf=" + csrf + "&step=pre-staging&stages=1&" + fields + "&go=stay")
            .statusCode());
    String jsdl = alice.get("/wizard/download").body();
    assertFalse(jsdl.contains(TYPED), jsdl);
    Matcher value = Pattern.compile("ENC\\([^)<]+\\)").matcher(jsdl);
    assertTrue(value.find(), jsdl);
    return value.group();
  }

  private static char[] decrypt(String value, SecretBinding use) throws Exception {
    return PasswordKeyPair.loadOrCreate(server.dataDir().resolve("keys")).decrypt(value, use);
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @Test
  void aDatabasePasswordIsBoundToTheSignedInUserAndTheJdbcUrl() throws Exception {
    String url = "jdbc:postgresql://db.bank.example:5432/risk?ssl=true&sslmode=verify-full";
    String value =
        encryptedValueOf(
            "sql",
            "s0.dsKind=inline&s0.jdbcUrl="
                + enc(url)
                + "&s0.dbUser=reader"
                + "&s0.dbPassword="
                + enc(TYPED));
    SecretBinding use = SecretBinding.jdbc(WebTestServer.ALICE, url);
    assertEquals(use, EncryptedSecret.parse(value).binding());
    assertArrayEquals(TYPED.toCharArray(), decrypt(value, use));
  }

  @Test
  void anSshPasswordIsBoundToTheSignedInUserAndTheLogin() throws Exception {
    String value =
        encryptedValueOf(
            "scp",
            "s0.host=SFTP.bank.example&s0.user=risk&s0.port=&s0.authKind=password"
                + "&s0.password="
                + enc(TYPED));
    SecretBinding use = SecretBinding.of(WebTestServer.ALICE, "risk@sftp.bank.example:22");
    assertEquals(use, EncryptedSecret.parse(value).binding());
    assertArrayEquals(TYPED.toCharArray(), decrypt(value, use));
  }
}
