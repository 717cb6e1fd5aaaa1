package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;

/**
 * A one-job command that changes the job ({@code cancel}, {@code kill}, {@code hold}, {@code
 * release}, {@code retry-stage-out}) and prints its status after the change.
 */
abstract class JobChangeCommand extends OneJobCommand<JobStatus> {
  @Override
  final int print(PrintWriter out, JobStatus job) {
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.job(job));
    } else if (!gantry.quiet) {
      out.println(StatusLine.of(job, gantry.colors()));
      out.flush();
    }
    return ExitCodes.OK;
  }
}
