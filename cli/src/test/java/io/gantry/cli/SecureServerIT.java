package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.GantryServer;
import io.gantry.server.config.ServerConfigLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cli/bin/gantry against a server with TLS (its generated, self-signed certificate) and user
 * accounts: trusted by the fingerprint the server printed, logged in with --user and
 * GANTRY_PASSWORD, as a user of a fresh installation would do it.
 */
class SecureServerIT {
  private static final Path LAUNCHER = Path.of("bin/gantry").toAbsolutePath();
  private static final String ADMIN_PASSWORD = "the first admin's password";

  @TempDir static Path dir;
  static GantryServer server;
  static String baseUrl;
  static String fingerprint;

  @BeforeAll
  static void start() throws Exception {
    Path passwordFile = Files.writeString(dir.resolve("admin.password"), ADMIN_PASSWORD);
    server = GantryServer.start(new ServerConfigLoader().load(null, Map.of(
        "listen.port", "0", "data.dir", dir.resolve("server").toString(), "demo.enabled", "false",
        "slots.total", "2", "tls.enabled", "true", "auth.enabled", "true",
        "admin.password-file", passwordFile.toString())));
    baseUrl = "https://127.0.0.1:" + server.address().getPort();
    fingerprint = server.tlsFingerprint().orElseThrow();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private String gantry(int expectedExit, String password, String trusted, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "--server", baseUrl, "--user", "admin"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    builder.environment().put("GANTRY_PASSWORD", password);
    builder.environment().remove("GANTRY_SERVER_FINGERPRINT");
    if (trusted != null) {
      builder.environment().put("GANTRY_SERVER_FINGERPRINT", trusted);
    }
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(expectedExit, process.exitValue(), output);
    return output;
  }

  @Test
  void aJobIsSubmittedAndFollowedOverTlsTrustedByFingerprint() throws Exception {
    Path job = TestJobs.posix(dir, "hello", "/bin/echo", "over tls");
    String id = gantry(0, ADMIN_PASSWORD, fingerprint, "submit", "-q", job.toString()).strip();
    assertTrue(id.matches("[a-z2-7]{32}"), id);
    String waited = gantry(0, ADMIN_PASSWORD, fingerprint, "wait", id);
    assertTrue(waited.contains(id + "  SUCCEEDED"), waited);
    assertTrue(gantry(0, ADMIN_PASSWORD, fingerprint, "output", id).contains("over tls"));
  }

  @Test
  void aServerWithAnotherCertificateIsRefused() throws Exception {
    String other = "AB:".repeat(31) + "CD";
    String output = gantry(3, ADMIN_PASSWORD, null, "--server-fingerprint", other, "server-info");
    assertTrue(output.contains("is not trusted"), output);
    String untrusted = gantry(3, ADMIN_PASSWORD, null, "server-info");
    assertTrue(untrusted.contains("is not trusted"), "no fingerprint: the JDK's CAs do not know a self-signed one\n" + untrusted);
  }

  @Test
  void aWrongPasswordIsRefusedWithTheUserNamed() throws Exception {
    String output = gantry(3, "not the password", fingerprint, "server-info");
    assertTrue(output.contains("refused the request as user admin (HTTP 401)"), output);
  }
}
