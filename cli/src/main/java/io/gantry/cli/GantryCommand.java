package io.gantry.cli;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gantry}: the command-line toolkit, a thin client of the server's SOAP API. Each task is a
 * subcommand class registered below; {@code validate} works offline, the others speak to the server
 * named by {@code --server}. The global options are inherited, so they may come before or after the
 * subcommand; where one is not given, {@link ServerSettings} takes it from the environment or the
 * login {@code gantry login} stored.
 */
@Command(
    name = "gantry",
    mixinStandardHelpOptions = true,
    versionProvider = GantryVersion.class,
    description = "Submit and manage Gantry jobs (extended JSDL) on a Gantry server.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry login --server https://hpc-gw.example.org:8443 --user alice",
      "  gantry submit --wait var-job.jsdl",
      "  gantry --server https://hpc-gw.example.org:8443 list --state RUNNING",
      "",
      "The server, user name and certificate fingerprint come from --server, --user and",
      "--server-fingerprint, else from GANTRY_SERVER, GANTRY_USER and",
      "GANTRY_SERVER_FINGERPRINT, else from what 'gantry login' stored (for that server",
      "only), else https://127.0.0.1:8443. After gantry login, commands send the session",
      "token it stored; else (or with GANTRY_PASSWORD set) the password by HTTP Basic, from",
      "GANTRY_PASSWORD or asked on the terminal; a server without authentication",
      "configured ignores both. Over https the fingerprint pins the",
      "server's certificate (gantry-server prints it at start).",
      ExitCodes.HELP
    })
public final class GantryCommand extends Invocation implements Runnable {
  /**
   * The subcommands, in the order --help lists them. Listed here rather than in {@code @Command} so
   * that a run sets up only the one it runs (see {@link #commandLine(Map, Optional, String[])}).
   */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          LoginCommand.class,
          LogoutCommand.class,
          SessionCommand.class,
          SubmitCommand.class,
          StatusCommand.class,
          ListCommand.class,
          GetCommand.class,
          WaitCommand.class,
          OutputCommand.class,
          ResultsCommand.class,
          FilesCommand.class,
          DefinitionCommand.class,
          CancelCommand.class,
          KillCommand.class,
          // dependencies, holds and retried stage-outs
          HoldCommand.class,
          ReleaseCommand.class,
          RetryStageOutCommand.class,
          ServerInfoCommand.class,
          ApplicationsCommand.class,
          ValidateCommand.class,
          EncryptPasswordCommand.class,
          AuditCommand.class,
          AdminCommand.class,
          ResubmitCommand.class,
          ScheduleCommand.class,
          NotifyCommand.class,
          CacheCommand.class,
          // the morning risk view's VaR results (docs/risk-view.md)
          VarCommand.class,
          // sessions of long-lived workers (issue 15)
          WorkerSessionCommand.class,
          CommandLine.HelpCommand.class);

  @Spec CommandSpec spec;

  GantryCommand(Map<String, String> environment, Optional<Terminal> terminal) {
    super(environment, terminal);
  }

  GantryCommand(
      Map<String, String> environment,
      Optional<Terminal> terminal,
      Path workingDirectory,
      boolean interactive,
      OutputStream standardOutput) {
    super(environment, terminal, workingDirectory, interactive, standardOutput);
  }

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "a command is needed, e.g. gantry submit FILE");
  }

  /** The configured command line, in this process's environment and on its terminal. */
  public static CommandLine commandLine() {
    return commandLine(System.getenv(), Terminal.ofSystemConsole());
  }

  /** The command line with every subcommand (help, completion, tests). */
  static CommandLine commandLine(Map<String, String> environment, Optional<Terminal> terminal) {
    return commandLine(environment, terminal, null);
  }

  /**
   * The command line in {@code environment}; tests call this with their own streams and terminal.
   */
  static CommandLine commandLine(
      Map<String, String> environment, Optional<Terminal> terminal, String[] args) {
    return commandLine(new GantryCommand(environment, terminal), args);
  }

  /** The command line of {@code command}, set up for {@code args} (null: every subcommand). */
  static CommandLine commandLine(GantryCommand top, String[] args) {
    CommandLine gantry = new CommandLine(top);
    Set<String> words = args == null ? Set.of() : new HashSet<>(Arrays.asList(args));
    // picocli builds each subcommand from its annotations by reflection, a tenth of a second for
    // all of them at a command's start: set up only those the arguments name (any word, so an
    // option's value that happens to be a name only adds one), every one for help or none named
    boolean all =
        args == null
            || words.contains("help")
            || SUBCOMMANDS.stream().noneMatch(c -> words.contains(nameOf(c)));
    for (Class<?> subcommand : SUBCOMMANDS) {
      if (all || words.contains(nameOf(subcommand))) {
        gantry.addSubcommand(subcommand);
      }
    }
    // picocli answers usage errors with 2 (CommandLine.ExitCode.USAGE) already
    return gantry
        // "--user admin admin user list": the first administrator is called admin, like the
        // command; an option's value is never taken for a subcommand
        .setAllowSubcommandsAsOptionParameters(true)
        .setExecutionExceptionHandler(
            (e, command, parsed) -> {
              if (LocalProcessNeeded.causedBy(e)) {
                return ExitCodes.RUN_LOCALLY;
              }
              if (e instanceof CommandFailure failure) {
                command.getErr().println("gantry: " + failure.getMessage());
                return failure.exitCode();
              }
              command.getErr().println("gantry: " + e);
              return ExitCodes.USAGE_OR_IO;
            });
  }

  private static String nameOf(Class<?> subcommand) {
    return subcommand.getAnnotation(Command.class).name();
  }

  public static void main(String[] args) {
    // libraries (the JSDL parser's) log at INFO; a command-line tool shows only what went wrong
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    System.exit(commandLine(System.getenv(), Terminal.ofSystemConsole(), args).execute(args));
  }
}
