package io.gantry.cli;

import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobStatus;
import picocli.CommandLine.Command;

/** {@code gantry hold ID}: the SOAP operation {@code holdJob}. */
@Command(
    name = "hold",
    mixinStandardHelpOptions = true,
    description = {
      "Hold a QUEUED job whose stage-in has not begun: it waits, holding no slot and staging"
          + " nothing, until 'gantry release ID'.",
      "A job whose stage-in has begun cannot be held (exit 1); cancel it instead."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry hold 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", ExitCodes.HELP})
final class HoldCommand extends JobChangeCommand {
  @Override
  JobStatus ask(JobManagement server, String jobId) throws Exception {
    return server.holdJob(jobId);
  }
}
