package io.gantry.cli;

import static io.gantry.cli.CliServers.ADMIN;
import static io.gantry.cli.CliServers.ALICE;
import static io.gantry.cli.CliServers.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry login keeps a session token the server issued; later commands send it instead of a
 * password, and it ends with gantry logout or gantry session revoke (expiry, a changed password and
 * a removed user: SessionTokenAuthenticatorTest in the server).
 */
@ExtendWith(CliServers.Secure.class)
class SessionTokenTest {
  @TempDir Path dir;

  private Path loginFile(String user) {
    return dir.resolve(user + "/config.properties");
  }

  /** gantry with {@code user}'s login file, without GANTRY_PASSWORD and without a terminal. */
  private GantryRun withoutPassword(String user, String... globalOptions) {
    return new GantryRun(
        List.of(globalOptions),
        Map.of(LoginFile.VARIABLE, loginFile(user).toString()),
        Optional.empty());
  }

  private StoredLogin login(GantryTestServer server, String user) {
    Result login =
        new GantryRun(
                List.of(
                    "--server",
                    server.baseUrl(),
                    "--user",
                    user,
                    "--server-fingerprint",
                    server.fingerprint().orElseThrow()),
                Map.of(
                    LoginFile.VARIABLE,
                    loginFile(user).toString(),
                    Invocation.PASSWORD_VARIABLE,
                    server.account(user).password()),
                Optional.empty())
            .run("login");
    assertEquals(0, login.exitCode(), login.toString());
    return new LoginFile(loginFile(user)).read().orElseThrow();
  }

  @Test
  void afterLoginCommandsNeedNoPasswordUntilLogoutRevokesTheToken(GantryTestServer server)
      throws Exception {
    StoredLogin stored = login(server, ALICE);
    String file = Files.readString(loginFile(ALICE));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(loginFile(ALICE))));
    assertTrue(stored.token().matches("gantry_st_[A-Za-z0-9_-]{43}"), stored.toString());
    assertFalse(file.contains(TestAccount.defaultPassword(ALICE)), file);
    assertFalse(stored.toString().contains(stored.token()), "toString never shows the token");

    Result list = withoutPassword(ALICE).run("list", "--quiet");
    assertEquals(0, list.exitCode(), list.toString());
    Result sessions = withoutPassword(ALICE).run("session", "list");
    assertEquals(0, sessions.exitCode(), sessions.toString());
    assertTrue(sessions.out().contains(stored.tokenId() + "  alice  "), sessions.toString());
    assertFalse(sessions.out().contains(stored.token()), sessions.toString());

    Result logout = withoutPassword(ALICE).run("logout");
    assertEquals(0, logout.exitCode(), logout.toString());
    assertTrue(logout.out().contains("session " + stored.tokenId() + " revoked"), logout.out());
    assertNull(new LoginFile(loginFile(ALICE)).read().orElseThrow().token());

    // a copy of the revoked token is worthless, and says what to do
    new LoginFile(loginFile(ALICE)).write(stored);
    Result refused = withoutPassword(ALICE).run("list");
    assertEquals(3, refused.exitCode(), refused.toString());
    assertTrue(
        refused.err().contains("no longer accepts your session as user alice"), refused.err());
    assertTrue(refused.err().endsWith("; run gantry login again\n"), refused.err());
  }

  @Test
  void onlyTheOwnerOrAnAdministratorRevokesAToken(GantryTestServer server) {
    StoredLogin alices = login(server, ALICE);
    login(server, BOB);
    login(server, ADMIN);

    Result bobs = withoutPassword(BOB).run("session", "revoke", alices.tokenId());
    assertEquals(4, bobs.exitCode(), bobs.toString());
    Result bobsList = withoutPassword(BOB).run("session", "list", "--all");
    assertEquals(3, bobsList.exitCode(), bobsList.toString());
    assertTrue(bobsList.err().contains("access denied"), bobsList.toString());
    assertEquals(0, withoutPassword(ALICE).run("list").exitCode());

    Result all = withoutPassword(ADMIN).run("session", "list", "--all");
    assertTrue(all.out().contains(alices.tokenId() + "  alice  "), all.toString());
    Result revoke = withoutPassword(ADMIN).run("session", "revoke", alices.tokenId());
    assertEquals(0, revoke.exitCode(), revoke.toString());
    assertEquals(3, withoutPassword(ALICE).run("list").exitCode());
  }

  @Test
  void aTokenCannotIssueAnotherOne(GantryTestServer server) {
    StoredLogin stored = login(server, ALICE);
    ServerConnection withToken =
        new ServerConnection(
            new ServerSettings(server.baseUrl(), ALICE, server.fingerprint().orElseThrow(), null),
            Credential.token(stored.token()));
    CommandFailure refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            CommandFailure.class, () -> withToken.call(s -> s.issueSessionToken("longer")));
    assertEquals(3, refused.exitCode());
    assertTrue(refused.getMessage().contains("cannot issue another"), refused.getMessage());
  }

  @Test
  void withATokenStoredThePinnedCertificateIsStillTheOnlyOneTrusted(GantryTestServer server) {
    login(server, ALICE);
    String other = "AB:" + server.fingerprint().orElseThrow().substring(3);
    Result refused = withoutPassword(ALICE, "--server-fingerprint", other).run("list");
    assertEquals(3, refused.exitCode(), refused.toString());
    assertTrue(refused.err().contains("is not trusted"), refused.err());
  }
}
