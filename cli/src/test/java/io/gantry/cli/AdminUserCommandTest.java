package io.gantry.cli;

import static io.gantry.cli.CliServers.ADMIN;
import static io.gantry.cli.CliServers.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * gantry admin user ... against the running secure test server (H2 job store): an administrator
 * adds, changes and removes a user, each change taking effect at the user's next command; the
 * server's account rules answer exit 1 with their reason; a plain user gets "access denied".
 */
@ExtendWith(CliServers.Secure.class)
class AdminUserCommandTest {
  static final String DAVE = "dave-cli";

  private static Result withStandardInput(String input, GantryRun gantry, String... args) {
    InputStream saved = System.in;
    System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
    try {
      return gantry.run(args);
    } finally {
      System.setIn(saved);
    }
  }

  private static GantryRun asDave(GantryTestServer server, String password) {
    return new GantryRun(
        List.of(
            "--server",
            server.baseUrl(),
            "--server-fingerprint",
            server.fingerprint().orElseThrow(),
            "--user",
            DAVE),
        Map.of(
            LoginFile.VARIABLE,
            GantryRun.NO_LOGIN_FILE.toString(),
            Invocation.PASSWORD_VARIABLE,
            password),
        Optional.empty());
  }

  @Test
  void anAdministratorManagesAUserWhileTheServerRuns(GantryTestServer server) {
    GantryRun admin = CliServers.as(server, ADMIN);
    Result added =
        withStandardInput(
            "dave's first password\n",
            admin,
            "admin",
            "user",
            "add",
            DAVE,
            "--os-account",
            "gantry-test-bob");
    assertEquals(0, added.exitCode(), added.toString());
    assertEquals("added user " + DAVE + "\tuser\tgantry-test-bob\n", added.out());
    assertEquals(0, asDave(server, "dave's first password").run("server-info").exitCode());

    Result list = admin.run("admin", "user", "list");
    assertTrue(list.out().matches("(?s).*\n" + DAVE + " +user +gantry-test-bob\n.*"), list.out());
    Result json = admin.run("--json", "admin", "user", "list");
    assertTrue(
        json.out()
            .replaceAll("\\s", "")
            .contains(
                "{\"name\":\"" + DAVE + "\",\"role\":\"user\",\"osAccount\":\"gantry-test-bob\"}"),
        json.out());

    Result passwd =
        withStandardInput("dave's second password\n", admin, "admin", "user", "passwd", DAVE);
    assertEquals(0, passwd.exitCode(), passwd.toString());
    assertEquals(3, asDave(server, "dave's first password").run("server-info").exitCode());
    GantryRun dave = asDave(server, "dave's second password");
    assertEquals(3, dave.run("admin", "user", "list").exitCode(), "not an administrator yet");

    Result role = admin.run("admin", "user", "set-role", DAVE, "admin");
    assertEquals(DAVE + "\tadmin\tgantry-test-bob\n", role.out(), role.toString());
    assertEquals(0, dave.run("admin", "user", "list").exitCode(), "an administrator now");
    Result os = admin.run("admin", "user", "set-os-account", DAVE, "--default");
    assertEquals(DAVE + "\tadmin\t(jobs.default-os-account)\n", os.out(), os.toString());

    Result removed = admin.run("admin", "user", "remove", DAVE);
    assertEquals(new Result(0, "removed user " + DAVE + "\n", ""), removed);
    assertEquals(3, dave.run("server-info").exitCode(), "a removed user's next command");
  }

  @Test
  void refusedChangesSayWhyWithExit1(GantryTestServer server) {
    GantryRun admin = CliServers.as(server, ADMIN);
    Result shortPassword = withStandardInput("short\n", admin, "admin", "user", "add", "erin-cli");
    assertEquals(1, shortPassword.exitCode(), shortPassword.toString());
    assertTrue(shortPassword.err().contains("at least 12 characters"), shortPassword.toString());
    Result root = admin.run("admin", "user", "set-os-account", ALICE, "root");
    assertEquals(1, root.exitCode(), root.toString());
    assertTrue(root.err().contains("root"), root.toString());
    Result last = admin.run("admin", "user", "remove", ADMIN);
    assertEquals(1, last.exitCode(), last.toString());
    assertTrue(last.err().contains("last administrator"), last.toString());
    Result noPassword = withStandardInput("", admin, "admin", "user", "passwd", ALICE);
    assertEquals(2, noPassword.exitCode(), noPassword.toString());
    Result noSuch = admin.run("admin", "user", "remove", "nobody-at-all");
    assertEquals(1, noSuch.exitCode(), noSuch.toString());
    assertTrue(noSuch.err().contains("no user nobody-at-all"), noSuch.toString());
  }

  @Test
  void aPlainUserIsRefused(GantryTestServer server) {
    Result list = CliServers.as(server, ALICE).run("admin", "user", "list");
    assertEquals(3, list.exitCode(), list.toString());
    assertTrue(list.err().contains("access denied"), list.toString());
    Result role = CliServers.as(server, ALICE).run("admin", "user", "set-role", ALICE, "admin");
    assertEquals(3, role.exitCode(), role.toString());
  }
}
