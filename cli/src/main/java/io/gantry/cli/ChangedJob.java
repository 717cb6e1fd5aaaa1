package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/** What cancel and kill print: the job's status after the change. */
final class ChangedJob {
  private ChangedJob() {}

  static int print(GantryCommand gantry, CommandSpec spec, JobStatus job) {
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.job(job));
    } else if (!gantry.quiet) {
      out.println(StatusLine.of(job, gantry.colors()));
      out.flush();
    }
    return GantryCommand.EXIT_OK;
  }
}
