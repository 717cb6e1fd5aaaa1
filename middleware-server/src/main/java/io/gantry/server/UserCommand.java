package io.gantry.server;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.datadirectory.PrivateDataDirectory;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.UserAccounts;
import io.gantry.server.internal.security.AccountRuleException;
import io.gantry.server.internal.security.UserAdministration;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server user add|passwd|set-os-account|set-role|remove|list}: the user accounts in
 * the configured job store, and the OS account each user's jobs run under, by the rules of {@link
 * UserAdministration} (which the administrators' SOAP operations apply too). Passwords are read
 * from a prompt that does not echo, or from the first line of standard input when it is not a
 * terminal (scripts), never from arguments, which other local users can see in the process list.
 * With the default H2 job store, run these while the server is stopped (H2 lets one process open
 * the file); while it runs, an administrator uses {@code gantry admin user ...} (SOAP) instead.
 */
@Command(
    name = "user",
    mixinStandardHelpOptions = true,
    description = "Manage the user accounts in the job store.",
    subcommands = {
      UserCommand.Add.class,
      UserCommand.Passwd.class,
      UserCommand.SetOsAccount.class,
      UserCommand.SetRole.class,
      UserCommand.Remove.class,
      UserCommand.ListUsers.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done",
      "1:no such user, or the user exists already",
      "2:bad command line or configuration, or an OS account that cannot run jobs"
    })
final class UserCommand {
  static final int MIN_PASSWORD_LENGTH = UserAdministration.MIN_PASSWORD_LENGTH;

  /** The top command, whose --config and --data-dir (given before "user") apply here too. */
  @ParentCommand GantryServerCommand server;

  /** The skeleton of every subcommand: open the job store, run, close. */
  abstract static class Action implements Callable<Integer> {
    @Mixin ConfigurationOptions configuration;

    @Spec CommandSpec spec;

    @ParentCommand UserCommand user;
    String defaultOsAccount;

    @Override
    public Integer call() throws Exception {
      ServerConfig config;
      try {
        ConfigurationOptions before =
            user == null || user.server == null ? null : user.server.configuration;
        config = configuration.orElse(before).load(Map.of());
      } catch (ConfigException e) {
        err().println("gantry-server: " + e.getMessage());
        return 2;
      }
      // Run before the first start, this creates the data directory: owner-only, as the server
      // would.
      PrivateDataDirectory privateData = GantryServer.privateDataDirectory(config);
      privateData.prepare();
      defaultOsAccount = config.sandbox().defaultOsAccount();
      try (JdbcJobStore store = JdbcJobStore.open(GantryServer.storeSettings(config))) {
        privateData.tighten();
        return run(store.userAccounts());
      }
    }

    abstract int run(UserAccounts accounts) throws IOException;

    /** Says why the account rules refused, and returns the exit code for it. */
    int refused(AccountRuleException e) {
      err().println("gantry-server: " + e.getMessage());
      return e.kind() == AccountRuleException.Kind.INVALID ? 2 : 1;
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    PrintWriter err() {
      return spec.commandLine().getErr();
    }

    /** A new password, asked twice on a terminal; null (after a message) if they differ. */
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
        BufferedReader in =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line = in.readLine();
        password = line == null ? new char[0] : line.toCharArray();
      }
      return password; // UserAdministration checks its length
    }
  }

  @Command(
      name = "add",
      description = "Add a user; the password is read from the terminal or standard input.")
  static final class Add extends Action {
    @Parameters(
        paramLabel = "NAME",
        description = "user name (letters, digits, '.', '_', '@', '-')")
    String name;

    @Option(names = "--admin", description = "role admin: sees and controls every user's jobs")
    boolean admin;

    @Option(
        names = "--os-account",
        paramLabel = "ACCOUNT",
        description =
            "the OS account the user's jobs run under (it must exist, and be neither root nor"
                + " the server's own); default: the setting jobs.default-os-account")
    String osAccount;

    @Override
    int run(UserAccounts accounts) throws IOException {
      UserAdministration users = new UserAdministration(accounts);
      if (users.find(name).isPresent()) { // before asking for a password in vain
        err().println("gantry-server: user " + name + " exists already");
        return 1;
      }
      char[] password = newPassword(name);
      if (password == null) {
        return 2;
      }
      UserAccount.Role role = admin ? UserAccount.Role.ADMIN : UserAccount.Role.USER;
      try {
        users.add(name, role, osAccount, password);
      } catch (AccountRuleException e) {
        return refused(e);
      }
      out()
          .println(
              "added user "
                  + name
                  + " ("
                  + role.value()
                  + ")"
                  + (osAccount == null ? "" : ", jobs run as OS account " + osAccount));
      return 0;
    }
  }

  @Command(
      name = "passwd",
      description = "Set a user's password, read from the terminal or standard input.")
  static final class Passwd extends Action {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    int run(UserAccounts accounts) throws IOException {
      UserAdministration users = new UserAdministration(accounts);
      if (users.find(name).isEmpty()) {
        err().println("gantry-server: no user " + name);
        return 1;
      }
      char[] password = newPassword(name);
      if (password == null) {
        return 2;
      }
      try {
        users.setPassword(name, password);
      } catch (AccountRuleException e) {
        return refused(e);
      }
      out().println("changed the password of " + name);
      return 0;
    }
  }

  @Command(
      name = "set-os-account",
      description =
          "Set the OS account a user's jobs run under, or --default for jobs.default-os-account.")
  static final class SetOsAccount extends Action {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(
        index = "1",
        paramLabel = "ACCOUNT",
        arity = "0..1",
        description = "an existing OS account, neither root nor the server's own")
    String osAccount;

    @Option(
        names = "--default",
        description = "run the user's jobs under jobs.default-os-account again")
    boolean useDefault;

    @Override
    int run(UserAccounts accounts) {
      if ((osAccount == null) == !useDefault) {
        err().println("gantry-server: give either an OS account or --default");
        return 2;
      }
      try {
        new UserAdministration(accounts).setOsAccount(name, osAccount);
      } catch (AccountRuleException e) {
        return refused(e);
      }
      out()
          .println(
              osAccount == null
                  ? "jobs of " + name + " run as jobs.default-os-account"
                  : "jobs of " + name + " run as OS account " + osAccount);
      return 0;
    }
  }

  @Command(
      name = "set-role",
      description = "Make a user an administrator (admin) or a plain user (user).")
  static final class SetRole extends Action {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "ROLE", description = "admin or user")
    String role;

    @Override
    int run(UserAccounts accounts) {
      if (!role.equals("admin") && !role.equals("user")) {
        err().println("gantry-server: a role is admin or user, not " + role);
        return 2;
      }
      try {
        new UserAdministration(accounts).setRole(name, UserAccount.Role.of(role));
      } catch (AccountRuleException e) {
        return refused(e);
      }
      out().println(name + " is now " + role);
      return 0;
    }
  }

  @Command(
      name = "remove",
      description = "Remove a user; their jobs stay, visible to administrators.")
  static final class Remove extends Action {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    int run(UserAccounts accounts) {
      try {
        new UserAdministration(accounts).remove(name);
      } catch (AccountRuleException e) {
        return refused(e);
      }
      out().println("removed user " + name);
      return 0;
    }
  }

  @Command(
      name = "list",
      description = "List the users, their roles and the OS accounts their jobs run as.")
  static final class ListUsers extends Action {
    @Override
    int run(UserAccounts accounts) {
      for (UserAdministration.Entry user : new UserAdministration(accounts).list()) {
        out()
            .println(
                user.name()
                    + "\t"
                    + user.role().value()
                    + "\t"
                    + (user.osAccount() == null
                        ? "(jobs.default-os-account: " + defaultOsAccount + ")"
                        : user.osAccount()));
      }
      return 0;
    }
  }
}
