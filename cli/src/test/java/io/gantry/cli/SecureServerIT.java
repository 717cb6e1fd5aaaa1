package io.gantry.cli;

import static io.gantry.cli.CliServers.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryProcess.Output;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * cli/bin/gantry against a server with TLS (its generated, self-signed certificate) and user
 * accounts: trusted by the fingerprint the server printed, logged in with --user and
 * GANTRY_PASSWORD, as a user of a fresh installation would do it.
 */
@ExtendWith(CliServers.Secure.class)
class SecureServerIT {
  @TempDir Path dir;

  /**
   * gantry as admin with {@code password}, trusting the certificate {@code trusted} (null: none
   * given).
   */
  private Output gantry(
      GantryTestServer server, int expectedExit, String password, String trusted, String... args)
      throws Exception {
    GantryProcess process = new GantryProcess(dir).with(Invocation.PASSWORD_VARIABLE, password);
    if (trusted != null) {
      process.with("GANTRY_SERVER_FINGERPRINT", trusted);
    }
    String[] all = new String[args.length + 4];
    all[0] = "--server";
    all[1] = server.baseUrl();
    all[2] = "--user";
    all[3] = ADMIN;
    System.arraycopy(args, 0, all, 4, args.length);
    Output output = process.run(all);
    assertEquals(expectedExit, output.exitCode(), output.text());
    return output;
  }

  @Test
  void aJobIsSubmittedAndFollowedOverTlsTrustedByFingerprint(GantryTestServer server)
      throws Exception {
    String password = TestAccount.defaultPassword(ADMIN);
    Path job = TestJobs.posix(dir, "hello", "/bin/echo", "over tls");
    String id =
        gantry(
                server,
                0,
                password,
                server.fingerprint().orElseThrow(),
                "submit",
                "-q",
                job.toString())
            .text()
            .strip();
    assertTrue(id.matches("[a-z2-7]{32}"), id);
    String waited =
        gantry(server, 0, password, server.fingerprint().orElseThrow(), "wait", id).text();
    assertTrue(waited.contains(id + "  SUCCEEDED"), waited);
    assertTrue(
        gantry(server, 0, password, server.fingerprint().orElseThrow(), "output", id)
            .text()
            .contains("over tls"));
  }

  @Test
  void aServerWithAnotherCertificateIsRefused(GantryTestServer server) throws Exception {
    String other = "AB:".repeat(31) + "CD";
    String password = TestAccount.defaultPassword(ADMIN);
    String output =
        gantry(server, 3, password, null, "--server-fingerprint", other, "server-info").text();
    assertTrue(output.contains("is not trusted"), output);
    String untrusted = gantry(server, 3, password, null, "server-info").text();
    assertTrue(
        untrusted.contains("is not trusted"),
        "no fingerprint: the JDK's CAs do not know a self-signed one\n" + untrusted);
  }

  @Test
  void aWrongPasswordIsRefusedWithTheUserNamed(GantryTestServer server) throws Exception {
    String output =
        gantry(server, 3, "not the password", server.fingerprint().orElseThrow(), "server-info")
            .text();
    assertTrue(output.contains("refused the request as user admin (HTTP 401)"), output);
  }
}
