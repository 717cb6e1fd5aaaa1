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
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
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
      GantryCommand.EXIT_CODE_HELP
    })
public final class GantryCommand implements Runnable {
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
          CacheCommand.class,
          // sessions of long-lived workers (issue 15)
          WorkerSessionCommand.class,
          CommandLine.HelpCommand.class);

  public static final int EXIT_OK = 0;
  public static final int EXIT_NEGATIVE = 1;
  public static final int EXIT_USAGE_OR_IO = 2;
  public static final int EXIT_SERVER = 3;
  public static final int EXIT_NOT_FOUND = 4;
  public static final int EXIT_TIMEOUT = 5;

  /**
   * Never an exit code of gantry: the command agent's answer that a command needs this process's
   * own standard input or terminal, so bin/gantry runs it in a JVM of its own instead.
   */
  static final int EXIT_RUN_LOCALLY = 75;

  /** The exit codes as every command's --help lists them. */
  static final String EXIT_CODE_HELP =
      "%nExit codes:%n"
          + "  0  success%n"
          + "  1  the job failed (FAILED, KILLED, CANCELLED), the document is invalid, or the%n"
          + "     server declined (e.g. cancel of a running job, a limit reached)%n"
          + "  2  usage error, or a local file cannot be read (or the login file is open%n"
          + "     to other users)%n"
          + "  3  the server cannot be reached, its certificate is not the pinned one, or it%n"
          + "     refused the credentials or the request%n"
          + "  4  no such job (it does not exist, or belongs to another user)%n"
          + "  5  wait --timeout ran out before the job ended";

  /**
   * Where the password for --user comes from; never a command-line option (it would show in ps).
   */
  static final String PASSWORD_VARIABLE = "GANTRY_PASSWORD";

  @Spec CommandSpec spec;

  // no picocli defaults: ServerSettings resolves the environment and the stored login, in that
  // order
  @Option(
      names = "--server",
      scope = ScopeType.INHERIT,
      paramLabel = "URL",
      description =
          "the Gantry server (default: $GANTRY_SERVER, else the one gantry login stored, else "
              + ServerSettings.DEFAULT_SERVER
              + "); /services/JobManagement is appended")
  String server;

  @Option(
      names = "--user",
      scope = ScopeType.INHERIT,
      paramLabel = "NAME",
      description =
          "user name for HTTP Basic authentication (default: $GANTRY_USER, else the one gantry"
              + " login stored); the password is read from $GANTRY_PASSWORD, else asked on the terminal")
  String user;

  @Option(
      names = "--server-fingerprint",
      scope = ScopeType.INHERIT,
      paramLabel = "SHA256",
      description =
          "over https, trust only the server certificate with this SHA-256 fingerprint"
              + " (gantry-server prints it at start; default: $GANTRY_SERVER_FINGERPRINT, else the one"
              + " gantry login stored)")
  String fingerprint;

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "print machine-readable JSON (one document on standard output)")
  boolean json;

  @Option(
      names = {"-q", "--quiet"},
      scope = ScopeType.INHERIT,
      description = "print only what scripts need (e.g. only the job id), no progress")
  boolean quiet;

  @Option(
      names = "--no-color",
      scope = ScopeType.INHERIT,
      description = "no colours, also on a terminal (NO_COLOR in the environment does the same)")
  boolean noColor;

  /** The process environment; tests give their own. */
  private final Map<String, String> environment;

  /** The user's terminal, empty when there is none (a pipe, a script). */
  private final Optional<Terminal> terminal;

  /**
   * What relative file names are relative to: this process's directory (the empty path), or, in the
   * command agent, the directory the user ran the command in.
   */
  private final Path workingDirectory;

  /** Whether standard input and output are a terminal (progress redrawn in place, colours). */
  private final boolean interactive;

  /** Standard output as bytes, for a file downloaded to it. */
  private final OutputStream standardOutput;

  GantryCommand(Map<String, String> environment, Optional<Terminal> terminal) {
    this(environment, terminal, Path.of(""), System.console() != null, System.out);
  }

  GantryCommand(
      Map<String, String> environment,
      Optional<Terminal> terminal,
      Path workingDirectory,
      boolean interactive,
      OutputStream standardOutput) {
    this.environment = environment;
    this.terminal = terminal;
    this.workingDirectory = workingDirectory;
    this.interactive = interactive;
    this.standardOutput = standardOutput;
  }

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "a command is needed, e.g. gantry submit FILE");
  }

  /**
   * A connection to the server the settings name, as their user: with the session token {@code
   * gantry login} stored for this server and user, unless GANTRY_PASSWORD is set (a script that
   * gives the password means it); else with the password. The one place a command gets its port.
   */
  ServerConnection connect() {
    ServerSettings settings = settings();
    if (settings.user() == null) {
      return connect(settings, Credential.none());
    }
    if (environment.get(PASSWORD_VARIABLE) == null) {
      Optional<StoredLogin> login = storedLoginFor(settings).filter(l -> l.token() != null);
      if (login.isPresent()) {
        return connect(settings, Credential.token(login.get().token()));
      }
    }
    return connect(settings, password(settings));
  }

  ServerConnection connect(ServerSettings settings, String password) {
    return connect(settings, Credential.password(settings.user(), password));
  }

  ServerConnection connect(ServerSettings settings, Credential credential) {
    try {
      return new ServerConnection(settings, credential);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(EXIT_USAGE_OR_IO, "--server-fingerprint: " + e.getMessage(), e);
    }
  }

  /** The stored login, if it is for the settings' server and user. */
  Optional<StoredLogin> storedLoginFor(ServerSettings settings) {
    String endpoint = ServerConnection.endpointOf(settings.server());
    return loginFile()
        .read()
        .filter(l -> ServerConnection.endpointOf(l.server()).equals(endpoint))
        .filter(l -> settings.user() != null && settings.user().equals(l.user()));
  }

  /**
   * Server, user and fingerprint: from the options, else the environment, else the stored login.
   */
  ServerSettings settings() {
    return ServerSettings.resolve(
        new ServerSettings.Given(server, user, fingerprint), environment, loginFile());
  }

  LoginFile loginFile() {
    return LoginFile.of(environment);
  }

  Optional<Terminal> terminal() {
    return terminal;
  }

  /**
   * The password of the settings' user: GANTRY_PASSWORD, else typed on the terminal, else none (the
   * server then refuses the call and says so).
   */
  String password(ServerSettings settings) {
    String variable = environment.get(PASSWORD_VARIABLE);
    if (variable != null || terminal.isEmpty()) {
      return variable;
    }
    char[] typed =
        terminal
            .get()
            .readPassword("Password for " + settings.user() + " at " + settings.server() + ": ");
    return typed == null ? null : new String(typed);
  }

  /** Whether standard output is an interactive terminal (progress is redrawn in place there). */
  boolean onTerminal() {
    return interactive;
  }

  /** Colours for job states: on a terminal, unless --no-color or NO_COLOR. */
  StateColors colors() {
    return new StateColors(onTerminal() && !noColor && environment.get("NO_COLOR") == null);
  }

  /** The terminal width from $COLUMNS (set by interactive shells), else 80. */
  int terminalWidth() {
    try {
      return Integer.parseInt(environment.getOrDefault("COLUMNS", "80").strip());
    } catch (NumberFormatException e) {
      return 80;
    }
  }

  /** A file the user named, for opening: relative names are relative to where they ran gantry. */
  Path file(Path named) {
    return workingDirectory.resolve(named);
  }

  /** Standard output as bytes (picocli's writer is for text). */
  OutputStream standardOutput() {
    return standardOutput;
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
                return EXIT_RUN_LOCALLY;
              }
              if (e instanceof CommandFailure failure) {
                command.getErr().println("gantry: " + failure.getMessage());
                return failure.exitCode();
              }
              command.getErr().println("gantry: " + e);
              return EXIT_USAGE_OR_IO;
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
