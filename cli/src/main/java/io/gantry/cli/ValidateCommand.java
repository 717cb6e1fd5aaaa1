package io.gantry.cli;

import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.Problem;
import io.gantry.jsdl.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code gantry validate FILE...}: checks job descriptions offline with the same parser the server
 * uses. Prints {@code OK FILE} (warnings beneath) or {@code FILE: INVALID} and one problem a line;
 * exit 0 when all are valid, 1 when some are invalid, 2 when a file cannot be read (the other files
 * are still checked).
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = {
      "Check job descriptions (extended JSDL) offline, with the server's own "
          + "parser; report every problem with line:column.",
      "Needs no server."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry validate var-job.jsdl hello-mpi.jsdl", ExitCodes.HELP})
final class ValidateCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "job description files")
  List<Path> files;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description = "a value for a parameter the job template declares; repeatable")
  List<String> sets;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    JsdlParser parser = new JsdlParser();
    Map<String, String> values = ParameterValues.of(sets);
    boolean invalid = false;
    boolean unreadable = false;
    List<Map<String, Object>> json = new ArrayList<>();
    for (Path file : files) {
      try {
        ParseResult result =
            parser.parse(Files.readAllBytes(gantry == null ? file : gantry.file(file)), values);
        invalid |= !result.isValid();
        if (gantry != null && gantry.json) {
          json.add(json(file, result));
        } else {
          print(file, result, out);
        }
      } catch (NoSuchFileException e) {
        err.println("gantry validate: " + file + ": no such file");
        unreadable = true;
      } catch (IOException e) {
        err.println("gantry validate: " + file + ": cannot read: " + e.getMessage());
        unreadable = true;
      }
    }
    if (gantry != null && gantry.json) {
      JsonOutput.print(out, Map.of("files", json));
    }
    out.flush();
    err.flush();
    return unreadable ? ExitCodes.USAGE_OR_IO : invalid ? ExitCodes.NEGATIVE : ExitCodes.OK;
  }

  private static Map<String, Object> json(Path file, ParseResult result) {
    List<Map<String, Object>> problems = new ArrayList<>();
    for (Problem p : result.report().problems()) {
      problems.add(
          JsonOutput.problem(p.severity().name(), p.line(), p.column(), p.path(), p.message()));
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("file", file.toString());
    json.put("valid", result.isValid());
    json.put("problems", problems);
    note(result).ifPresent(note -> json.put("note", note));
    return json;
  }

  /**
   * Offline, a named application cannot be checked: only the server knows what it offers (and to
   * whom), so the verdict says who decides.
   */
  private static Optional<String> note(ParseResult result) {
    return result
        .job()
        .flatMap(JsdlJob::namedApplication)
        .map(
            name ->
                "ApplicationName "
                    + name
                    + result.validJob().applicationVersion().map(v -> " version " + v).orElse("")
                    + " is resolved by the server when the job is validated or submitted; gantry applications"
                    + " lists what it offers you");
  }

  /** Prints one file's verdict; true when it is valid. */
  private static boolean print(Path file, ParseResult result, PrintWriter out) {
    out.println(result.isValid() ? "OK " + file : file + ": INVALID");
    for (Problem problem : result.report().problems()) {
      out.println("  " + (problem.severity() == Severity.WARNING ? "warning: " : "") + problem);
    }
    note(result).ifPresent(note -> out.println("  note: " + note));
    return result.isValid();
  }
}
