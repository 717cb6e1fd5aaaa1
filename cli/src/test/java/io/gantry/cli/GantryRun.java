package io.gantry.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs gantry in this JVM against one server, capturing what it prints and its exit code. */
final class GantryRun {
  /** What one run printed, and its exit code. */
  record Result(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private final String server;

  GantryRun(String server) {
    this.server = server;
  }

  Result run(String... args) {
    List<String> all = new ArrayList<>(List.of("--server", server));
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine gantry = GantryCommand.commandLine();
    gantry.setOut(new PrintWriter(out, true));
    gantry.setErr(new PrintWriter(err, true));
    int exitCode = gantry.execute(all.toArray(String[]::new));
    return new Result(exitCode, out.toString(), err.toString());
  }
}
