package io.gantry.cli;

import static io.gantry.cli.CliServers.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gantry login on a terminal, against a real server with TLS and accounts: the user sees the
 * certificate's fingerprint, trusts it or not, and types the password without echo. (Without a
 * terminal, LoginIT runs the launcher.)
 */
@ExtendWith(CliServers.Secure.class)
class LoginTest {
  static final String TRUST_QUESTION = "Trust this certificate? [y/N] ";

  @TempDir Path dir;

  private Path loginFile() {
    return dir.resolve("gantry/config.properties");
  }

  /** gantry with the login file in the test's directory, GANTRY_PASSWORD unset, and a terminal. */
  private GantryRun onTerminal(ScriptedTerminal terminal, String... globalOptions) {
    return new GantryRun(
        List.of(globalOptions),
        Map.of(LoginFile.VARIABLE, loginFile().toString()),
        Optional.of(terminal));
  }

  @Test
  void theFingerprintIsShownAndOnceTrustedItIsStoredWithTheServerAndUser(GantryTestServer server)
      throws Exception {
    ScriptedTerminal terminal = new ScriptedTerminal("y", TestAccount.defaultPassword(ALICE));
    Result login = onTerminal(terminal, "--server", server.baseUrl(), "--user", ALICE).run("login");

    assertEquals(0, login.exitCode(), login.toString());
    assertTrue(
        login
            .out()
            .startsWith(
                "logged in to "
                    + server.baseUrl()
                    + " as alice; stored in "
                    + loginFile()
                    + " (no password; a session token valid until "),
        login.toString());
    assertTrue(
        login
            .err()
            .startsWith("The server at " + server.baseUrl() + " presents this certificate:\n"),
        login.toString());
    assertTrue(
        login
            .err()
            .contains("\n  SHA-256 fingerprint: " + server.fingerprint().orElseThrow() + "\n"),
        login.toString());
    assertEquals(
        List.of(TRUST_QUESTION, "Password for alice at " + server.baseUrl() + ": "),
        terminal.prompts);
    StoredLogin stored = new LoginFile(loginFile()).read().orElseThrow();
    assertEquals(
        new StoredLogin(server.baseUrl(), ALICE, server.fingerprint().orElseThrow()),
        stored.withoutToken());
    assertTrue(stored.token().startsWith("gantry_st_"), stored.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"n", "", "yes please"})
  void anythingButYesTrustsNothingAsksNoPasswordAndStoresNothing(
      String answer, GantryTestServer server) {
    ScriptedTerminal terminal = new ScriptedTerminal(answer, TestAccount.defaultPassword(ALICE));
    Result login = onTerminal(terminal, "--server", server.baseUrl(), "--user", ALICE).run("login");

    assertEquals(1, login.exitCode(), login.toString());
    assertTrue(
        login.err().endsWith("gantry: the certificate was not trusted; nothing was stored\n"),
        login.toString());
    assertEquals(List.of(TRUST_QUESTION), terminal.prompts);
    assertFalse(Files.exists(loginFile()));
  }

  @Test
  void theUserNameIsAskedWhenNotGivenAndAWrongTypedPasswordStoresNothing(GantryTestServer server) {
    ScriptedTerminal terminal = new ScriptedTerminal(ALICE, "y", "not alice's password");
    Result login = onTerminal(terminal, "--server", server.baseUrl()).run("login");

    assertEquals(3, login.exitCode(), login.toString());
    assertTrue(
        login
            .err()
            .endsWith(
                "gantry: the Gantry server at "
                    + server.baseUrl()
                    + "/services/JobManagement"
                    + " refused the request as user alice (HTTP 401); nothing was stored\n"),
        login.toString());
    assertEquals(
        List.of(
            "User name at " + server.baseUrl() + ": ",
            TRUST_QUESTION,
            "Password for alice at " + server.baseUrl() + ": "),
        terminal.prompts);
    assertFalse(Files.exists(loginFile()));
  }

  @Test
  void afterLoginACommandWithNoOptionsUsesTheSessionTokenAndAsksNothing(GantryTestServer server) {
    Result login =
        onTerminal(
                new ScriptedTerminal("y", TestAccount.defaultPassword(ALICE)),
                "--server",
                server.baseUrl(),
                "--user",
                ALICE)
            .run("login");
    assertEquals(0, login.exitCode(), login.toString());

    ScriptedTerminal terminal = new ScriptedTerminal();
    Result info = onTerminal(terminal).run("server-info", "--quiet");
    assertEquals(new Result(0, "0.1.0\n", ""), info);
    assertEquals(List.of(), terminal.prompts);
  }
}
