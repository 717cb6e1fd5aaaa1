package io.gantry.cli;

import io.gantry.cli.soap.User;
import io.gantry.cli.soap.UserAccountFault;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry admin user list|add|remove|passwd|set-role|set-os-account}: the server's user
 * accounts, changed through its SOAP API while it runs (with the H2 job store too, which {@code
 * gantry-server user} can open only while the server is stopped). The server applies the same
 * account rules as {@code gantry-server user}. A new password is typed twice without echo on a
 * terminal, or read from the first line of standard input, never from an argument (it would show in
 * the process list).
 */
@Command(
    name = "user",
    mixinStandardHelpOptions = true,
    description = "Manage user accounts (administrators only).",
    subcommands = {
      AdminUserCommand.ListUsers.class,
      AdminUserCommand.Add.class,
      AdminUserCommand.Remove.class,
      AdminUserCommand.Passwd.class,
      AdminUserCommand.SetRole.class,
      AdminUserCommand.SetOsAccount.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry admin user list",
      "  gantry admin user add carol --os-account risk-carol      # asks for the password",
      "  printf '%s\\n' \"$NEW_PASSWORD\" | gantry admin user passwd carol",
      "  gantry admin user set-role carol admin",
      "  gantry admin user set-os-account carol --default",
      "  gantry admin user remove carol",
      ExitCodes.HELP
    })
final class AdminUserCommand {
  @ParentCommand AdminCommand admin;

  /** What every subcommand shares: the connection, the output, the refused-request answer. */
  abstract static class Action implements Callable<Integer> {
    @ParentCommand AdminUserCommand users;
    @Spec CommandSpec spec;

    Invocation gantry() {
      return users.admin.gantry;
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    /** Runs {@code operation}; a refused account change is exit 1 with the server's reason. */
    User change(ServerConnection.Operation<User> operation) {
      return gantry()
          .connect()
          .call(
              s -> {
                try {
                  return operation.on(s);
                } catch (UserAccountFault e) {
                  String why =
                      e.getFaultInfo() == null ? e.getMessage() : e.getFaultInfo().getMessage();
                  throw new CommandFailure(ExitCodes.NEGATIVE, why, e);
                }
              });
    }

    /** A new password: twice without echo on a terminal, else the first line of standard input. */
    String newPassword(String user) {
      Optional<Terminal> terminal = gantry().terminal();
      char[] password;
      if (terminal.isPresent()) {
        password = terminal.get().readPassword("New password for " + user + ": ");
        char[] again = terminal.get().readPassword("Again: ");
        boolean same = password != null && again != null && Arrays.equals(password, again);
        if (again != null) {
          Arrays.fill(again, '\0');
        }
        if (!same) {
          throw new CommandFailure(
              ExitCodes.USAGE_OR_IO, "the two entries differ; nothing was changed");
        }
      } else {
        password = EncryptPasswordCommand.firstLineOfStandardInput();
      }
      if (password.length == 0) {
        throw new CommandFailure(ExitCodes.USAGE_OR_IO, "no password given on standard input");
      }
      // the generated client takes a String; it lives only until the request is sent
      String text = new String(password);
      Arrays.fill(password, '\0');
      return text;
    }

    static String describe(User user) {
      return user.getName()
          + "\t"
          + user.getRole()
          + "\t"
          + (user.getOsAccount() == null ? "(jobs.default-os-account)" : user.getOsAccount());
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the users: name, role, the OS account their jobs run as.")
  static final class ListUsers extends Action {
    @Override
    public Integer call() {
      List<User> all = gantry().connect().call(s -> s.listUsers());
      if (gantry().json) {
        List<Map<String, Object>> json = new ArrayList<>();
        for (User u : all) {
          Map<String, Object> user = new LinkedHashMap<>();
          user.put("name", u.getName());
          user.put("role", u.getRole());
          user.put("osAccount", u.getOsAccount());
          json.add(user);
        }
        JsonOutput.print(out(), json);
      } else {
        TextTable table = new TextTable("NAME", "ROLE", "OS ACCOUNT");
        for (User u : all) {
          table.row(
              u.getName(),
              u.getRole(),
              u.getOsAccount() == null ? "(jobs.default-os-account)" : u.getOsAccount());
        }
        table.print(out());
      }
      out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description =
          "Add a user; the password is asked on the terminal or read from standard input.")
  static final class Add extends Action {
    @Parameters(paramLabel = "NAME", description = "letters, digits, '.', '_', '@', '-'")
    String name;

    @Option(names = "--admin", description = "an administrator: sees and controls every job")
    boolean asAdmin;

    @Option(
        names = "--os-account",
        paramLabel = "ACCOUNT",
        description =
            "the OS account the user's jobs run under (neither root nor the server's own);"
                + " default: the server's jobs.default-os-account")
    String osAccount;

    @Override
    public Integer call() {
      String password = newPassword(name);
      User added = change(s -> s.addUser(name, password, asAdmin ? "admin" : "user", osAccount));
      out().println("added user " + describe(added));
      out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "remove",
      mixinStandardHelpOptions = true,
      description = "Remove a user: their jobs stay; their logins and web sessions stop at once.")
  static final class Remove extends Action {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    public Integer call() {
      change(s -> s.removeUser(name));
      out().println("removed user " + name);
      out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "passwd",
      mixinStandardHelpOptions = true,
      description = "Set a user's password (asked on the terminal or read from standard input).")
  static final class Passwd extends Action {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    public Integer call() {
      String password = newPassword(name);
      change(s -> s.setUserPassword(name, password));
      out().println("changed the password of " + name);
      out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "set-role",
      mixinStandardHelpOptions = true,
      description = "Make a user an administrator (admin) or a plain user (user).")
  static final class SetRole extends Action {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "ROLE", description = "admin or user")
    String role;

    @Override
    public Integer call() {
      if (!role.equals("admin") && !role.equals("user")) {
        throw new CommandFailure(ExitCodes.USAGE_OR_IO, "a role is admin or user, not " + role);
      }
      out().println(describe(change(s -> s.setUserRole(name, role))));
      out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "set-os-account",
      mixinStandardHelpOptions = true,
      description = "Set the OS account a user's jobs run under, or --default for the server's.")
  static final class SetOsAccount extends Action {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(
        index = "1",
        paramLabel = "ACCOUNT",
        arity = "0..1",
        description = "an existing OS account, neither root nor the server's own")
    String osAccount;

    @Option(names = "--default", description = "back to the server's jobs.default-os-account")
    boolean useDefault;

    @Override
    public Integer call() {
      if ((osAccount == null) == !useDefault) {
        throw new CommandFailure(ExitCodes.USAGE_OR_IO, "give either an OS account or --default");
      }
      out().println(describe(change(s -> s.setUserOsAccount(name, osAccount))));
      out().flush();
      return ExitCodes.OK;
    }
  }
}
