package io.gantry.cli;

import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobStateFault;
import io.gantry.cli.soap.JobStatus;
import picocli.CommandLine.Command;

/** {@code gantry cancel ID}: withdraws a job whose program has not started. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description = {
      "Cancel a job that has not started running (QUEUED, STAGING_IN, "
          + "STAGED): it ends CANCELLED.",
      "A running job is stopped with 'gantry kill'; cancelling one is refused (exit 1)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry cancel 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", ExitCodes.HELP})
final class CancelCommand extends JobChangeCommand {
  @Override
  JobStatus ask(JobManagement server, String jobId) throws Exception {
    try {
      return server.cancelJob(jobId);
    } catch (JobStateFault e) {
      throw WrongVerb.explain(e, jobId, "kill", "its program has started");
    }
  }
}
