package io.gantry.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * Runs gantry in this JVM, capturing what it prints and its exit code. Its environment is the
 * test's, not the process's, so a developer's own GANTRY_* variables and stored login never reach a
 * test.
 */
final class GantryRun {
  /** Where runs look for a stored login unless a test names one: a file that is never there. */
  static final Path NO_LOGIN_FILE =
      Path.of("target", "no-login", "config.properties").toAbsolutePath();

  /** What one run printed, and its exit code. */
  record Result(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private final List<String> globalOptions;
  private final Map<String, String> environment;
  private final Optional<Terminal> terminal;

  /** Runs against {@code server}, with no other settings and no terminal. */
  GantryRun(String server) {
    this(
        List.of("--server", server),
        Map.of(LoginFile.VARIABLE, NO_LOGIN_FILE.toString()),
        Optional.empty());
  }

  GantryRun(
      List<String> globalOptions, Map<String, String> environment, Optional<Terminal> terminal) {
    this.globalOptions = globalOptions;
    this.environment = environment;
    this.terminal = terminal;
  }

  Result run(String... args) {
    List<String> all = new ArrayList<>(globalOptions);
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine gantry = GantryCommand.commandLine(environment, terminal);
    gantry.setOut(new PrintWriter(out, true));
    gantry.setErr(new PrintWriter(err, true));
    int exitCode = gantry.execute(all.toArray(String[]::new));
    return new Result(exitCode, out.toString(), err.toString());
  }
}
