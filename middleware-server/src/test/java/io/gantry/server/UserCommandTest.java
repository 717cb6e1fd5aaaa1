package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.security.PasswordHasher;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** gantry-server user add|passwd|remove|list, run in this JVM on a real job store. */
class UserCommandTest {
  @TempDir Path dir;

  record Run(int exitCode, String out, String err) {}

  private Run user(String stdin, String... args) {
    InputStream saved = System.in;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try {
      System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
      List<String> all = new ArrayList<>(List.of("user"));
      all.addAll(List.of(args));
      all.addAll(List.of("--data-dir", dir.toString()));
      CommandLine gantryServer = new CommandLine(new GantryServerCommand());
      gantryServer.setOut(new PrintWriter(out, true));
      gantryServer.setErr(new PrintWriter(err, true));
      int code = gantryServer.execute(all.toArray(String[]::new));
      return new Run(code, out.toString(), err.toString());
    } finally {
      System.setIn(saved);
    }
  }

  /** Runs gantry-server with exactly these arguments (no --data-dir added). */
  private Run gantryServer(String stdin, String... args) {
    InputStream saved = System.in;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try {
      System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
      CommandLine gantryServer = new CommandLine(new GantryServerCommand());
      gantryServer.setOut(new PrintWriter(out, true));
      gantryServer.setErr(new PrintWriter(err, true));
      return new Run(gantryServer.execute(args), out.toString(), err.toString());
    } finally {
      System.setIn(saved);
    }
  }

  private Optional<UserAccount> stored(String name) {
    var config = new ServerConfigLoader().load(null, Map.of("data.dir", dir.toString()));
    try (JdbcJobStore store = JdbcJobStore.open(GantryServer.storeSettings(config))) {
      return store.userAccounts().find(name);
    }
  }

  @Test
  void dataDirAndConfigGivenBeforeTheSubcommandChooseTheJobStore() throws Exception {
    Run add =
        gantryServer(
            "a long enough password\n", "--data-dir", dir.toString(), "user", "add", "alice");
    assertEquals(0, add.exitCode(), add.err());
    assertTrue(stored("alice").isPresent(), "alice must be in the job store under --data-dir");

    Path config = dir.resolve("server.properties");
    Files.writeString(config, "data.dir=" + dir + "\n");
    Run viaConfig =
        gantryServer(
            "another long password\n", "--config", config.toString(), "user", "add", "bob");
    assertEquals(0, viaConfig.exitCode(), viaConfig.err());
    assertTrue(stored("bob").isPresent(), "bob must be in the job store of --config's data.dir");
    assertEquals(
        "alice\tuser\t(jobs.default-os-account: nobody)\nbob\tuser\t(jobs.default-os-account: nobody)\n",
        user("", "list").out());
  }

  @Test
  void optionsAfterTheSubcommandWinOverThoseBeforeIt() {
    Path elsewhere = dir.resolve("elsewhere");
    Run add =
        gantryServer(
            "a long enough password\n",
            "--data-dir",
            elsewhere.toString(),
            "user",
            "add",
            "alice",
            "--data-dir",
            dir.toString());
    assertEquals(0, add.exitCode(), add.err());
    assertTrue(stored("alice").isPresent());
  }

  @Test
  void addStoresAUserWithAHashOfThePasswordFromStandardInput() throws Exception {
    Run add = user("a long enough password\n", "add", "alice");
    assertEquals(0, add.exitCode(), add.err());
    assertEquals("added user alice (user)\n", add.out());
    UserAccount alice = stored("alice").orElseThrow();
    assertFalse(alice.admin());
    assertTrue(
        new PasswordHasher().verify("a long enough password".toCharArray(), alice.passwordHash()));
    assertFalse(add.out().contains("password") || add.err().contains("a long enough"));
  }

  @Test
  void addWithAdminGivesRoleAdminAndListShowsRoles() {
    assertEquals(0, user("a long enough password\n", "add", "carol", "--admin").exitCode());
    assertEquals(0, user("another long password\n", "add", "bob").exitCode());
    Run list = user("", "list");
    assertEquals(0, list.exitCode());
    assertEquals(
        "bob\tuser\t(jobs.default-os-account: nobody)\n"
            + "carol\tadmin\t(jobs.default-os-account: nobody)\n",
        list.out());
  }

  @Test
  void aUserMappedToAnOsAccountIsListedWithItAndCanBeMovedBackToTheDefault() {
    Run add = user("a long enough password\n", "add", "alice", "--os-account", "gantry-test-alice");
    assertEquals(0, add.exitCode(), add.err() + " (run scripts/create-test-accounts)");
    assertEquals("added user alice (user), jobs run as OS account gantry-test-alice\n", add.out());
    assertEquals("alice\tuser\tgantry-test-alice\n", user("", "list").out());

    Run move = user("", "set-os-account", "alice", "gantry-test-bob");
    assertEquals(0, move.exitCode(), move.err());
    assertEquals("alice\tuser\tgantry-test-bob\n", user("", "list").out());
    assertEquals(0, user("", "set-os-account", "alice", "--default").exitCode());
    assertEquals("alice\tuser\t(jobs.default-os-account: nobody)\n", user("", "list").out());
    assertEquals(1, user("", "set-os-account", "nobody-here", "gantry-test-bob").exitCode());
  }

  @Test
  void rootTheServersOwnAccountAndMissingAccountsAreRefusedAsJobAccounts() {
    Run root = user("a long enough password\n", "add", "alice", "--os-account", "root");
    assertEquals(2, root.exitCode());
    assertTrue(root.err().contains("never run as root"), root.err());
    assertTrue(stored("alice").isEmpty(), "nothing is stored when the account is refused");

    Run missing =
        user("a long enough password\n", "add", "alice", "--os-account", "gantry-no-such-account");
    assertEquals(2, missing.exitCode());
    assertTrue(missing.err().contains("does not exist"), missing.err());

    Run option = user("a long enough password\n", "add", "alice", "--os-account", "-rf");
    assertEquals(2, option.exitCode());

    assertEquals(0, user("a long enough password\n", "add", "alice").exitCode());
    Run toRoot = user("", "set-os-account", "alice", "root");
    assertEquals(2, toRoot.exitCode());
    assertTrue(toRoot.err().contains("root"), toRoot.err());
  }

  @Test
  void aTakenNameATooShortPasswordAndABadNameAreRefused() {
    assertEquals(0, user("a long enough password\n", "add", "alice").exitCode());
    Run again = user("a long enough password\n", "add", "alice");
    assertEquals(1, again.exitCode());
    assertTrue(again.err().contains("exists already"), again.err());
    Run shortPassword = user("short\n", "add", "dave");
    assertEquals(2, shortPassword.exitCode());
    assertTrue(shortPassword.err().contains("at least 12 characters"), shortPassword.err());
    assertTrue(stored("dave").isEmpty());
    assertEquals(2, user("a long enough password\n", "add", "../etc").exitCode());
  }

  @Test
  void passwdReplacesThePasswordAndRemoveDeletesTheUser() {
    assertEquals(0, user("a long enough password\n", "add", "alice").exitCode());
    Run passwd = user("a brand new password\n", "passwd", "alice");
    assertEquals(0, passwd.exitCode(), passwd.err());
    String hash = stored("alice").orElseThrow().passwordHash();
    assertTrue(new PasswordHasher().verify("a brand new password".toCharArray(), hash));
    assertFalse(new PasswordHasher().verify("a long enough password".toCharArray(), hash));

    assertEquals(0, user("", "remove", "alice").exitCode());
    assertTrue(stored("alice").isEmpty());
    assertEquals(1, user("", "remove", "alice").exitCode());
    assertEquals(1, user("a brand new password\n", "passwd", "alice").exitCode());
  }

  @Test
  void theLastAdministratorCannotBeRemoved() {
    assertEquals(0, user("a long enough password\n", "add", "carol", "--admin").exitCode());
    Run remove = user("", "remove", "carol");
    assertEquals(1, remove.exitCode());
    assertTrue(remove.err().contains("last administrator"), remove.err());
    assertEquals(0, user("another long password\n", "add", "dave", "--admin").exitCode());
    assertEquals(0, user("", "remove", "carol").exitCode());
    assertTrue(stored("carol").isEmpty());
  }

  @Test
  void aPasswordIsNeverTakenFromTheCommandLine() {
    Run run = user("", "add", "alice", "--password", "a long enough password");
    assertEquals(2, run.exitCode());
    assertTrue(stored("alice").isEmpty());
  }
}
