package io.gantry.cli;

import io.gantry.cli.soap.ChainStage;
import io.gantry.cli.soap.InvalidJobFault;
import io.gantry.cli.soap.JobStatus;
import io.gantry.cli.soap.ValidationResult;
import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JobChain;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Element;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code gantry submit CHAIN.xml}: a {@code gx:JobChain} (docs/workflows.md) is submitted with
 * submitChain, all its stages as one unit, and each stage is printed with its new job's id, one
 * {@code STAGE ID} line each, in the order they depend on each other. With --wait it waits for the
 * chain's last stage (which fails in turn when a stage before it fails).
 */
final class ChainSubmit {
  private ChainSubmit() {}

  /** The chain's root element, or null when {@code xml} is no chain (or no XML at all). */
  static Element chain(byte[] xml) {
    try {
      Element root = HardenedXml.parse(new ByteArrayInputStream(xml)).getDocumentElement();
      return JobChain.isChain(root) ? root : null;
    } catch (Exception e) {
      return null; // the job parser reports what is wrong with it, at its line
    }
  }

  static int submit(
      Invocation gantry,
      CommandSpec spec,
      Path file,
      Element root,
      Map<String, String> values,
      boolean await,
      Duration timeout) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      JobChain.read(root); // its form, offline; each stage is checked by the server
    } catch (IllegalArgumentException e) {
      err.println(file + ": INVALID");
      err.println("  JobChain: " + e.getMessage());
      err.flush();
      return ExitCodes.NEGATIVE;
    }
    io.gantry.cli.soap.JobDocument document = new io.gantry.cli.soap.JobDocument();
    document.setAny(root);
    document.getParameter().addAll(ParameterValues.soap(values));
    ServerConnection server = gantry.connect();
    ValidationResult[] rejection = new ValidationResult[1];
    List<ChainStage> stages =
        server.call(
            s -> {
              try {
                return s.submitChain(document);
              } catch (InvalidJobFault e) {
                rejection[0] = e.getFaultInfo();
                return null;
              }
            });
    if (stages == null) {
      err.println(file + ": INVALID");
      List<Map<String, Object>> problems = new ArrayList<>();
      for (io.gantry.cli.soap.Problem p : rejection[0].getProblem()) {
        problems.add(JsonOutput.problem(p.getSeverity(), 0, 0, p.getPath(), p.getMessage()));
        err.println("  " + p.getPath() + ": " + p.getMessage());
      }
      err.flush();
      if (gantry.json) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("stages", null);
        json.put("problems", problems);
        JsonOutput.print(out, json);
      }
      return ExitCodes.NEGATIVE;
    }
    if (!gantry.json) {
      int width = stages.stream().mapToInt(s -> s.getStage().length()).max().orElse(0);
      if (!gantry.quiet) {
        out.println("submitted chain of " + stages.size() + " stages");
      }
      for (ChainStage s : stages) {
        out.println(String.format("%-" + width + "s %s", s.getStage(), s.getJobId()));
      }
      out.flush();
    }
    String last = stages.get(stages.size() - 1).getJobId();
    JobStatus end = await ? WaitCommand.await(gantry, spec, server, last, timeout, false) : null;
    if (gantry.json) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (ChainStage s : stages) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("stage", s.getStage());
        one.put("jobId", s.getJobId());
        list.add(one);
      }
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("stages", list);
      json.put("status", end == null ? null : JsonOutput.job(end));
      json.put("problems", List.of());
      JsonOutput.print(out, json);
    } else if (end != null && !gantry.quiet) {
      out.println(StatusLine.of(end, gantry.colors()));
      out.flush();
    }
    return end == null ? ExitCodes.OK : WaitCommand.exitCode(end);
  }
}
