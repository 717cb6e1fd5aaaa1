package io.gantry.cli;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * One run of {@code gantry} as its subcommands see it: the global options (inherited, so they may
 * come before or after the subcommand), the environment, the terminal and the working directory,
 * and the connection to the server they name. Subcommands reach it as their {@code ParentCommand};
 * {@link GantryCommand} only adds the command line's name, help and registry.
 */
abstract class Invocation {
  /**
   * Where the password for --user comes from; never a command-line option (it would show in ps).
   */
  static final String PASSWORD_VARIABLE = "GANTRY_PASSWORD";

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

  Invocation(Map<String, String> environment, Optional<Terminal> terminal) {
    this(environment, terminal, Path.of(""), System.console() != null, System.out);
  }

  Invocation(
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
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, "--server-fingerprint: " + e.getMessage(), e);
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
}
