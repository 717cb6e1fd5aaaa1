package io.gantry.cli;

import io.gantry.cli.soap.InvalidJobFault;
import io.gantry.cli.soap.JobDocument;
import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import io.gantry.cli.soap.ValidationResult;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.LocatedElement;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.Problem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
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
 * {@code gantry submit FILE}: checks the job description offline first (the same parser as the
 * server, so errors come with line:column before any network round trip), then submits its {@code
 * JobDefinition} element and prints the job id.
 */
@Command(
    name = "submit",
    mixinStandardHelpOptions = true,
    description = {
      "Submit a job description (extended JSDL) and print the new job's id.",
      "A chain (gx:JobChain, docs/workflows.md) is submitted as one unit: one STAGE ID line"
          + " for each of its stages.",
      "With --wait, show progress until the job ends; the exit code then says how it ended."
          + " With --follow, also stream the job's standard output while it runs (our own lines "
          + "go to standard error then, so standard output is the job's alone)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry submit var-job.jsdl",
      "  gantry submit var-job-named.jsdl --set business_date=2026-11-20 --set portfolio=BANK",
      "  id=$(gantry submit --quiet var-job.jsdl)",
      "  gantry submit --wait --follow hello-mpi.jsdl",
      "  gantry submit --after $var_job report.jsdl     (starts once the VaR job SUCCEEDED)",
      "  gantry submit --hold var-job.jsdl; gantry release ID",
      "  gantry submit --queue urgent var-job.jsdl       (a priority class the server has)",
      "  gantry submit --set business_date=2026-11-20 nightly-var-chain.xml   (a chain)",
      ExitCodes.HELP
    })
final class SubmitCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "the job description")
  Path file;

  @picocli.CommandLine.Mixin JobDependencyOptions dependencies;
  @picocli.CommandLine.Mixin QueueClassOption queue;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "a value for a parameter the job template declares (gx:Parameters); repeatable."
              + " A parameter without a value takes its default")
  List<String> sets;

  @Option(names = "--wait", description = "wait until the job ends, showing progress")
  boolean await;

  @Option(names = "--follow", description = "wait, and stream the job's standard output meanwhile")
  boolean follow;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "with --wait: give up waiting after this long (e.g. 90s, 15m, 2h); the job goes on")
  Duration timeout;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    byte[] xml = read(gantry.file(file), file);
    Map<String, String> values = ParameterValues.of(sets);
    org.w3c.dom.Element chain = ChainSubmit.chain(xml);
    if (chain != null) {
      if (dependencies.any() || queue.queueClass != null || follow) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO,
            file
                + " is a chain (gx:JobChain): --after, --after-any, --hold, --queue and --follow"
                + " apply to one job; write them in the chain's stages");
      }
      return ChainSubmit.submit(gantry, spec, file, chain, values, await, timeout);
    }
    ParseResult parsed = new JsdlParser().parse(xml, values);
    if (!parsed.isValid()) {
      return rejected(offlineProblems(parsed), out, err);
    }
    if (!gantry.quiet && !gantry.json) {
      parsed
          .report()
          .problems()
          .forEach(p -> err.println("gantry submit: " + file + ": warning: " + p));
    }
    ServerConnection server = gantry.connect();
    ValidationResult[] rejection = new ValidationResult[1];
    String jobId =
        server.call(
            s -> {
              try {
                return s.submitJob(document(xml, dependencies, queue, values));
              } catch (InvalidJobFault e) {
                rejection[0] = e.getFaultInfo();
                return null;
              }
            });
    if (jobId == null) {
      return rejected(serverProblems(rejection[0], parsed), out, err);
    }
    boolean waiting = await || follow;
    // with --follow, standard output carries the job's output only; --json keeps it for the
    // document
    boolean streaming = follow && !gantry.json;
    PrintWriter ours = streaming ? err : out;
    if (!gantry.json) {
      ours.println(gantry.quiet ? jobId : "submitted job " + jobId);
      ours.flush();
    }
    JobStatus last =
        waiting ? WaitCommand.await(gantry, spec, server, jobId, timeout, streaming) : null;
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobId", jobId);
      json.put("status", last == null ? null : JsonOutput.job(last));
      json.put("problems", offlineProblems(parsed));
      JsonOutput.print(out, json);
    } else if (last != null && !gantry.quiet) {
      ours.println(StatusLine.of(last, gantry.colors()));
      ours.flush();
      if (last.getState() == JobState.FAILED) {
        showStderrTail(server, jobId, err);
      }
    }
    return last == null ? ExitCodes.OK : WaitCommand.exitCode(last);
  }

  /** The end of a failed job's standard error, on our standard error. */
  private static void showStderrTail(ServerConnection server, String jobId, PrintWriter err) {
    List<String> tail = StderrTail.of(server, jobId);
    if (tail.isEmpty()) {
      return;
    }
    err.println(
        "--- the last "
            + tail.size()
            + " lines of its standard error (gantry output --stderr "
            + jobId
            + " shows all) ---");
    tail.forEach(err::println);
    err.flush();
  }

  /** The bytes of {@code file}; errors name it as the user did ({@code named}). */
  private static byte[] read(Path file, Path named) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, named + ": no such file");
    } catch (IOException e) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, named + ": cannot read: " + e.getMessage());
    }
  }

  private static JobDocument document(
      byte[] xml,
      JobDependencyOptions dependencies,
      QueueClassOption queue,
      Map<String, String> values) {
    JobDocument document = ParameterValues.document(xml, values);
    dependencies.applyTo(document.getAny());
    queue.applyTo(document.getAny());
    return document;
  }

  private int rejected(List<Map<String, Object>> problems, PrintWriter out, PrintWriter err) {
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobId", null);
      json.put("status", null);
      json.put("problems", problems);
      JsonOutput.print(out, json);
    } else {
      err.println(file + ": INVALID");
      for (Map<String, Object> p : problems) {
        String where =
            ((int) p.get("line")) > 0 ? "line " + p.get("line") + ":" + p.get("column") + " " : "";
        String severity = "WARNING".equals(p.get("severity")) ? "warning: " : "";
        err.println("  " + severity + where + p.get("path") + ": " + p.get("message"));
      }
      err.flush();
    }
    return ExitCodes.NEGATIVE;
  }

  private static List<Map<String, Object>> offlineProblems(ParseResult parsed) {
    List<Map<String, Object>> problems = new ArrayList<>();
    for (Problem p : parsed.report().problems()) {
      problems.add(
          JsonOutput.problem(p.severity().name(), p.line(), p.column(), p.path(), p.message()));
    }
    return problems;
  }

  /**
   * The server's problems, placed in the user's file: the server counts lines in the element it
   * received (the file's prologue is not sent), so a problem's path is looked up in the file as it
   * was parsed here, and the server's line:column kept only where the path is not found.
   */
  private static List<Map<String, Object>> serverProblems(
      ValidationResult result, ParseResult local) {
    List<Map<String, Object>> problems = new ArrayList<>();
    if (result != null) {
      for (io.gantry.cli.soap.Problem p : result.getProblem()) {
        Optional<LocatedElement> here = local.at(p.getPath());
        problems.add(
            JsonOutput.problem(
                p.getSeverity(),
                here.map(LocatedElement::line).orElse(p.getLine()),
                here.map(LocatedElement::column).orElse(p.getColumn()),
                p.getPath(),
                p.getMessage()));
      }
    }
    return problems;
  }
}
