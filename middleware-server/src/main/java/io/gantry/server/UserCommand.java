package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.security.PasswordHasher;
import io.gantry.server.store.JdbcJobStore;
import io.gantry.server.store.UserAccount;
import io.gantry.server.store.UserAccounts;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code gantry-server user add|passwd|remove|list}: the user accounts in the configured job
 * store. Passwords are read from a prompt that does not echo, or from the first line of standard
 * input when it is not a terminal (scripts), never from arguments, which other local users can
 * see in the process list. With the default H2 job store, run these while the server is stopped
 * (H2 lets one process open the file); a PostgreSQL job store may be changed while it runs.
 */
@Command(name = "user", mixinStandardHelpOptions = true,
    description = "Manage the user accounts in the job store.",
    subcommands = {UserCommand.Add.class, UserCommand.Passwd.class, UserCommand.Remove.class, UserCommand.ListUsers.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "1:no such user, or the user exists already", "2:bad command line or configuration"})
final class UserCommand {
  static final int MIN_PASSWORD_LENGTH = 12;

  /** The top command, whose --config and --data-dir (given before "user") apply here too. */
  @ParentCommand
  GantryServerCommand server;

  /** The skeleton of every subcommand: open the job store, run, close. */
  abstract static class Action implements Callable<Integer> {
    @Mixin
    ConfigurationOptions configuration;

    @Spec
    CommandSpec spec;

    @ParentCommand
    UserCommand user;

    @Override
    public Integer call() throws Exception {
      ServerConfig config;
      try {
        ConfigurationOptions before = user == null || user.server == null ? null : user.server.configuration;
        config = configuration.orElse(before).load(Map.of());
      } catch (ConfigException e) {
        err().println("gantry-server: " + e.getMessage());
        return 2;
      }
      try (JdbcJobStore store = JdbcJobStore.open(GantryServer.storeSettings(config))) {
        return run(store.userAccounts());
      }
    }

    abstract int run(UserAccounts accounts) throws IOException;

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    PrintWriter err() {
      return spec.commandLine().getErr();
    }

    /** A new password, asked twice on a terminal; null (after a message) if unusable. */
    char[] newPassword(String user) throws IOException {
      Console console = System.console();
      char[] password;
      if (console != null) {
        password = console.readPassword("New password for %s: ", user);
        char[] again = console.readPassword("Again: ");
        boolean same = password != null && Arrays.equals(password, again);
        if (again != null) {
          Arrays.fill(again, '\0');
        }
        if (!same) {
          err().println("gantry-server: the passwords differ");
          return null;
        }
      } else {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line = in.readLine();
        password = line == null ? new char[0] : line.toCharArray();
      }
      if (password.length < MIN_PASSWORD_LENGTH) {
        err().println("gantry-server: a password needs at least " + MIN_PASSWORD_LENGTH + " characters");
        Arrays.fill(password, '\0');
        return null;
      }
      return password;
    }

    static String hash(char[] password) {
      try {
        return new PasswordHasher().hash(password);
      } finally {
        Arrays.fill(password, '\0');
      }
    }
  }

  @Command(name = "add", description = "Add a user; the password is read from the terminal or standard input.")
  static final class Add extends Action {
    @Parameters(paramLabel = "NAME", description = "user name (letters, digits, '.', '_', '@', '-')")
    String name;

    @Option(names = "--admin", description = "role admin: sees and controls every user's jobs")
    boolean admin;

    @Override
    int run(UserAccounts accounts) throws IOException {
      try {
        UserAccount.requireValidName(name);
      } catch (IllegalArgumentException e) {
        err().println("gantry-server: " + e.getMessage());
        return 2;
      }
      if (accounts.find(name).isPresent()) {
        err().println("gantry-server: user " + name + " exists already");
        return 1;
      }
      char[] password = newPassword(name);
      if (password == null) {
        return 2;
      }
      UserAccount.Role role = admin ? UserAccount.Role.ADMIN : UserAccount.Role.USER;
      if (!accounts.add(new UserAccount(name, role, hash(password)))) {
        err().println("gantry-server: user " + name + " exists already");
        return 1;
      }
      out().println("added user " + name + " (" + role.value() + ")");
      return 0;
    }
  }

  @Command(name = "passwd", description = "Set a user's password, read from the terminal or standard input.")
  static final class Passwd extends Action {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    int run(UserAccounts accounts) throws IOException {
      if (accounts.find(name).isEmpty()) {
        err().println("gantry-server: no user " + name);
        return 1;
      }
      char[] password = newPassword(name);
      if (password == null) {
        return 2;
      }
      if (!accounts.changePassword(name, hash(password))) {
        err().println("gantry-server: no user " + name);
        return 1;
      }
      out().println("changed the password of " + name);
      return 0;
    }
  }

  @Command(name = "remove", description = "Remove a user; their jobs stay, visible to administrators.")
  static final class Remove extends Action {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    int run(UserAccounts accounts) {
      if (isLastAdministrator(accounts)) {
        // without one, nobody could see every job again short of editing the database
        err().println("gantry-server: " + name + " is the last administrator; add another first");
        return 1;
      }
      if (!accounts.remove(name)) {
        err().println("gantry-server: no user " + name);
        return 1;
      }
      out().println("removed user " + name);
      return 0;
    }

    private boolean isLastAdministrator(UserAccounts accounts) {
      List<UserAccount> admins = accounts.list().stream().filter(UserAccount::admin).toList();
      return admins.size() == 1 && admins.get(0).name().equals(name);
    }
  }

  @Command(name = "list", description = "List the users and their roles.")
  static final class ListUsers extends Action {
    @Override
    int run(UserAccounts accounts) {
      for (UserAccount account : accounts.list()) {
        out().println(account.name() + "\t" + account.role().value());
      }
      return 0;
    }
  }
}
