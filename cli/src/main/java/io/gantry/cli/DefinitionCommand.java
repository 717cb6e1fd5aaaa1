package io.gantry.cli;

import io.gantry.cli.soap.JobDocument;
import io.gantry.cli.soap.JobManagement;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code gantry definition ID}: the job description as the server keeps it, passwords redacted. */
@Command(
    name = "definition",
    mixinStandardHelpOptions = true,
    description = {
      "Print a job's description (JSDL) as submitted, with every password value redacted.",
      "A job template is printed as written, followed by a comment with the values it was filled"
          + " with (gantry resubmit runs it again with them).",
      "The output can be edited and submitted again."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry definition 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5 > rerun.jsdl", ExitCodes.HELP})
final class DefinitionCommand extends OneJobCommand<JobDocument> {
  @Override
  JobDocument ask(JobManagement server, String jobId) throws Exception {
    return server.getJobDefinition(jobId);
  }

  @Override
  int print(PrintWriter out, JobDocument document) {
    if (document == null || document.getAny() == null) {
      throw new CommandFailure(ExitCodes.SERVER, "the server sent no job description for " + jobId);
    }
    String xml = JobDocuments.text(JobDocuments.withoutApiNamespace(document.getAny()));
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobId", jobId);
      json.put("xml", xml);
      json.put("parameters", ParameterValues.json(document.getParameter()));
      JsonOutput.print(out, json);
    } else {
      out.println(xml);
      if (!document.getParameter().isEmpty()) {
        // after the root element a comment is still XML: the output stays a valid document
        out.println(
            "<!-- the values this job was filled with: "
                + commentSafe(ParameterValues.text(document.getParameter()))
                + " -->");
      }
      out.flush();
    }
    return ExitCodes.OK;
  }

  /** "--" may not appear inside an XML comment. */
  private static String commentSafe(String text) {
    return text.replace("--", "- -");
  }
}
