package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry status ID...}: one line per job. Asks job by job rather than with getJobStatuses so
 * that an unknown id is reported in the server's own words (which name the user the server took the
 * caller to be), the same message every other command prints.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show jobs' state, phase, times, exit code and failure reason, one line per job.",
      "Exit 4 when any id is unknown (the others are still shown)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry status 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      "  gantry --json status $id | jq -r '.jobs[0].state'",
      ExitCodes.HELP
    })
final class StatusCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "ID", description = "job ids")
  List<String> jobIds;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ServerConnection server = gantry.connect();
    List<JobStatus> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    StateColors colors = gantry.colors();
    for (String id : jobIds) {
      try {
        JobStatus job = server.call(s -> s.getJobStatus(id));
        found.add(job);
        if (!gantry.json) {
          out.println(
              gantry.quiet
                  ? job.getJobId() + " " + job.getState().value()
                  : StatusLine.of(job, colors));
        }
      } catch (CommandFailure e) {
        if (e.exitCode() != ExitCodes.NOT_FOUND) {
          throw e;
        }
        missing.add(id);
        err.println("gantry status: " + e.getMessage());
      }
    }
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobs", JsonOutput.jobs(found));
      json.put("notFound", missing);
      JsonOutput.print(out, json);
    }
    out.flush();
    err.flush();
    return missing.isEmpty() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
  }
}
