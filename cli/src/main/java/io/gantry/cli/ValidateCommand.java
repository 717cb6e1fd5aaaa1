package io.gantry.cli;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.Problem;
import io.gantry.jsdl.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gantry validate FILE...}: checks job descriptions offline with the same parser the
 * server uses. Prints {@code OK FILE} (warnings beneath) or {@code FILE: INVALID} and one
 * problem a line; exit 0 when all are valid, 1 when some are invalid, 2 when a file cannot be
 * read (the other files are still checked).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check job descriptions (extended JSDL) offline; report every problem with line:column.")
final class ValidateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "job description files")
  List<Path> files;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    JsdlParser parser = new JsdlParser();
    boolean invalid = false;
    boolean unreadable = false;
    for (Path file : files) {
      try {
        invalid |= !print(file, parser.parse(file), out);
      } catch (NoSuchFileException e) {
        err.println("gantry validate: " + file + ": no such file");
        unreadable = true;
      } catch (IOException e) {
        err.println("gantry validate: " + file + ": cannot read: " + e.getMessage());
        unreadable = true;
      }
    }
    out.flush();
    err.flush();
    return unreadable ? GantryCommand.EXIT_USAGE_OR_IO : invalid ? GantryCommand.EXIT_NEGATIVE : GantryCommand.EXIT_OK;
  }

  /** Prints one file's verdict; true when it is valid. */
  private static boolean print(Path file, ParseResult result, PrintWriter out) {
    out.println(result.isValid() ? "OK " + file : file + ": INVALID");
    for (Problem problem : result.report().problems()) {
      out.println("  " + (problem.severity() == Severity.WARNING ? "warning: " : "") + problem);
    }
    return result.isValid();
  }
}
