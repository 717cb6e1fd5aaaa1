package io.gantry.cli;

import static io.gantry.cli.CliServers.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryProcess.Output;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry login through cli/bin/gantry without a terminal, as a script runs it, against a real
 * server with TLS and accounts; then the commands that take their defaults from it.
 */
@ExtendWith(CliServers.Secure.class)
class LoginIT {
  static final String OTHER_FINGERPRINT = "AB:".repeat(31) + "CD";

  @TempDir Path dir;
  Path loginFile;
  GantryProcess gantry;

  @BeforeEach
  void aliceWithHerPasswordInTheEnvironment() {
    loginFile = dir.resolve("config/gantry/config.properties");
    gantry =
        new GantryProcess(dir)
            .with(LoginFile.VARIABLE, loginFile.toString())
            .with(Invocation.PASSWORD_VARIABLE, TestAccount.defaultPassword(ALICE));
  }

  @Test
  void loginWithTheFingerprintStoresAnOwnerOnlyFileWithoutThePasswordAndCommandsNeedNoOptions(
      GantryTestServer server) throws Exception {
    // as a user might copy it: lower case, without colons; stored as the server prints it
    String typed = server.fingerprint().orElseThrow().replace(":", "").toLowerCase(Locale.ROOT);
    Output login =
        gantry.run(
            "login", "--server", server.baseUrl(), "--user", ALICE, "--server-fingerprint", typed);
    assertEquals(0, login.exitCode(), login.toString());
    assertTrue(
        login
            .text()
            .startsWith(
                "logged in to "
                    + server.baseUrl()
                    + " as alice; stored in "
                    + loginFile
                    + " (no password; a session token valid until "),
        login.toString());

    assertEquals(
        "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(loginFile)));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(loginFile.getParent())));
    String stored = Files.readString(loginFile);
    assertTrue(
        stored.startsWith(
            "# written by gantry login; no password is kept here, but the session token is a"
                + " credential: keep this file to yourself\nserver="
                + server.baseUrl()
                + "\nuser=alice\nserver-fingerprint="
                + server.fingerprint().orElseThrow()
                + "\nsession-token=gantry_st_"),
        stored);
    assertFalse(stored.contains(TestAccount.defaultPassword(ALICE)), stored);

    Path job = TestJobs.posix(dir, "from-login", "/bin/echo", "stored login");
    Output submit = gantry.run("submit", "--quiet", "--wait", job.toString());
    assertEquals(0, submit.exitCode(), submit.text());
    String id = submit.text().strip();
    Output list = gantry.run("list");
    assertEquals(0, list.exitCode(), list.text());
    assertTrue(
        list.text()
            .lines()
            .anyMatch(l -> l.startsWith(id) && l.contains(" alice ") && l.contains("SUCCEEDED")),
        list.text());
  }

  @Test
  void aWrongPasswordIsExitCode3AndStoresNothing(GantryTestServer server) throws Exception {
    Output login =
        gantry
            .with(Invocation.PASSWORD_VARIABLE, "not alice's password")
            .run(
                "login",
                "--server",
                server.baseUrl(),
                "--user",
                ALICE,
                "--server-fingerprint",
                server.fingerprint().orElseThrow());
    assertEquals(
        new Output(
            3,
            "gantry: the Gantry server at "
                + server.baseUrl()
                + "/services/JobManagement"
                + " refused the request as user alice (HTTP 401); nothing was stored\n"),
        login);
    assertFalse(Files.exists(loginFile.getParent()), "not even the directory is created");
  }

  @Test
  void withoutATerminalLoginNeedsTheFingerprintAndHasNoSwitchToSkipIt(GantryTestServer server)
      throws Exception {
    Output login = gantry.run("login", "--server", server.baseUrl(), "--user", ALICE);
    assertEquals(
        new Output(
            2,
            "gantry: no terminal to confirm the certificate of "
                + server.baseUrl()
                + " on, and trusting it unseen would trust whoever answers there: give the fingerprint gantry-server"
                + " printed at start with --server-fingerprint or GANTRY_SERVER_FINGERPRINT; nothing was stored\n"),
        login);
    Output yes = gantry.run("login", "--server", server.baseUrl(), "--user", ALICE, "--yes");
    assertEquals(2, yes.exitCode(), yes.text());
    assertTrue(yes.text().startsWith("Unknown option: '--yes'\n"), yes.text());
    assertFalse(Files.exists(loginFile.getParent()));
  }

  @Test
  void anotherCertificateThanTheOnePinnedIsExitCode3AndStoresNothing(GantryTestServer server)
      throws Exception {
    Output login =
        gantry.run(
            "login",
            "--server",
            server.baseUrl(),
            "--user",
            ALICE,
            "--server-fingerprint",
            OTHER_FINGERPRINT);
    assertEquals(3, login.exitCode(), login.text());
    assertTrue(
        login
            .text()
            .startsWith(
                "gantry: the Gantry server at "
                    + server.baseUrl()
                    + "/services/JobManagement"
                    + " is not trusted (the server's certificate has SHA-256 fingerprint "
                    + server.fingerprint().orElseThrow()
                    + ", not the one pinned); "),
        login.text());
    assertTrue(login.text().endsWith("; nothing was stored\n"), login.text());
    assertFalse(Files.exists(loginFile.getParent()));
  }

  @Test
  void aStoredFingerprintTheServerNoLongerHasIsExitCode3AndAsksForANewLogin(GantryTestServer server)
      throws Exception {
    new LoginFile(loginFile).write(new StoredLogin(server.baseUrl(), ALICE, OTHER_FINGERPRINT));
    Output list = gantry.run("list");
    assertEquals(3, list.exitCode(), list.text());
    assertTrue(
        list.text()
            .endsWith(
                "; it is not the certificate you confirmed with gantry login (pinned in "
                    + loginFile
                    + "); if the server's certificate was replaced, check the new fingerprint with its operator"
                    + " and run gantry login again\n"),
        list.text());
  }

  @Test
  void aCommandWithAWrongPasswordAfterLoginIsExitCode3(GantryTestServer server) throws Exception {
    assertEquals(
        0,
        gantry
            .run(
                "login",
                "--server",
                server.baseUrl(),
                "--user",
                ALICE,
                "--server-fingerprint",
                server.fingerprint().orElseThrow())
            .exitCode());
    Output list = gantry.with(Invocation.PASSWORD_VARIABLE, "not alice's password").run("list");
    assertEquals(
        new Output(
            3,
            "gantry: the Gantry server at "
                + server.baseUrl()
                + "/services/JobManagement"
                + " refused the request as user alice (HTTP 401)\n"),
        list);
  }
}
