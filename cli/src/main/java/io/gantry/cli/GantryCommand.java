package io.gantry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code gantry}: the command-line toolkit, a thin client of the server's SOAP API. Each task
 * is a subcommand class registered below; {@code validate} works offline, the others speak to
 * the server named by {@code --server}. The global options are inherited, so they may come
 * before or after the subcommand.
 */
@Command(name = "gantry", mixinStandardHelpOptions = true, versionProvider = GantryVersion.class,
    description = "Submit and manage Gantry jobs (extended JSDL) on a Gantry server.",
    subcommands = {SubmitCommand.class, StatusCommand.class, ListCommand.class, WaitCommand.class,
        OutputCommand.class, ResultsCommand.class, DefinitionCommand.class, CancelCommand.class,
        KillCommand.class, ServerInfoCommand.class, ValidateCommand.class, EncryptPasswordCommand.class, AuditCommand.class, CommandLine.HelpCommand.class},
    footerHeading = "%nExamples:%n",
    footer = {"  gantry submit --wait var-job.jsdl",
        "  gantry --server https://hpc-gw.example.org:8443 list --state RUNNING",
        "",
        "The server URL comes from --server, else from the environment variable",
        "GANTRY_SERVER. --user is sent as the HTTP Basic user name with the password",
        "from GANTRY_PASSWORD; a server without authentication configured ignores it.",
        "Over https, --server-fingerprint (or GANTRY_SERVER_FINGERPRINT) pins the server's",
        "certificate by the SHA-256 fingerprint gantry-server prints at start.",
        GantryCommand.EXIT_CODE_HELP})
public final class GantryCommand implements Runnable {
  public static final int EXIT_OK = 0;
  public static final int EXIT_NEGATIVE = 1;
  public static final int EXIT_USAGE_OR_IO = 2;
  public static final int EXIT_SERVER = 3;
  public static final int EXIT_NOT_FOUND = 4;
  public static final int EXIT_TIMEOUT = 5;

  /** The exit codes as every command's --help lists them. */
  static final String EXIT_CODE_HELP = "%nExit codes:%n"
      + "  0  success%n"
      + "  1  the job failed (FAILED, KILLED, CANCELLED), the document is invalid, or the%n"
      + "     server declined (e.g. cancel of a running job, a limit reached)%n"
      + "  2  usage error, or a local file cannot be read%n"
      + "  3  the server cannot be reached, or refused the credentials or the request%n"
      + "  4  no such job (it does not exist, or belongs to another user)%n"
      + "  5  wait --timeout ran out before the job ended";

  /** Where the password for --user comes from; never a command-line option (it would show in ps). */
  static final String PASSWORD_VARIABLE = "GANTRY_PASSWORD";

  @Spec CommandSpec spec;

  @Option(names = "--server", scope = ScopeType.INHERIT, paramLabel = "URL",
      defaultValue = "${env:GANTRY_SERVER:-https://127.0.0.1:8443}",
      description = "the Gantry server (default: $GANTRY_SERVER, else ${DEFAULT-VALUE}); "
          + "/services/JobManagement is appended")
  String server;

  @Option(names = "--user", scope = ScopeType.INHERIT, paramLabel = "NAME",
      defaultValue = "${env:GANTRY_USER}",
      description = "user name for HTTP Basic authentication (default: $GANTRY_USER); the password"
          + " is read from $GANTRY_PASSWORD")
  String user;

  @Option(names = "--server-fingerprint", scope = ScopeType.INHERIT, paramLabel = "SHA256",
      defaultValue = "${env:GANTRY_SERVER_FINGERPRINT}",
      description = "over https, trust only the server certificate with this SHA-256 fingerprint"
          + " (gantry-server prints it at start; default: $GANTRY_SERVER_FINGERPRINT)")
  String fingerprint;

  @Option(names = "--json", scope = ScopeType.INHERIT,
      description = "print machine-readable JSON (one document on standard output)")
  boolean json;

  @Option(names = {"-q", "--quiet"}, scope = ScopeType.INHERIT,
      description = "print only what scripts need (e.g. only the job id), no progress")
  boolean quiet;

  @Option(names = "--no-color", scope = ScopeType.INHERIT,
      description = "no colours, also on a terminal (NO_COLOR in the environment does the same)")
  boolean noColor;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a command is needed, e.g. gantry submit FILE");
  }

  /** A connection to the server named by --server, as --user. */
  ServerConnection connect() {
    try {
      return new ServerConnection(server, user, user == null ? null : System.getenv(PASSWORD_VARIABLE), fingerprint);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(EXIT_USAGE_OR_IO, "--server-fingerprint: " + e.getMessage(), e);
    }
  }

  /** Whether standard output is an interactive terminal (progress is redrawn in place there). */
  static boolean onTerminal() {
    return System.console() != null;
  }

  /** Colours for job states: on a terminal, unless --no-color or NO_COLOR. */
  StateColors colors() {
    return new StateColors(onTerminal() && !noColor && System.getenv("NO_COLOR") == null);
  }

  /** The configured command line; tests call this with their own output streams. */
  public static CommandLine commandLine() {
    // picocli answers usage errors with 2 (CommandLine.ExitCode.USAGE) already
    return new CommandLine(new GantryCommand())
        .setExecutionExceptionHandler((e, command, parsed) -> {
          if (e instanceof CommandFailure failure) {
            command.getErr().println("gantry: " + failure.getMessage());
            return failure.exitCode();
          }
          command.getErr().println("gantry: " + e);
          return EXIT_USAGE_OR_IO;
        });
  }

  public static void main(String[] args) {
    // the SOAP stack logs its set-up at INFO; a command-line tool shows only what went wrong
    // (CXF logs a refused connection as a WARN with a stack trace; the message we print says it all)
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.cxf", "off");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    System.exit(commandLine().execute(args));
  }
}
