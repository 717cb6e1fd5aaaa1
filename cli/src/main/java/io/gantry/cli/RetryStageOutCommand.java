package io.gantry.cli;

import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobStatus;
import picocli.CommandLine.Command;

/** {@code gantry retry-stage-out ID}: the SOAP operation {@code retryStageOut}. */
@Command(
    name = "retry-stage-out",
    mixinStandardHelpOptions = true,
    description = {
      "Run again the stage-out of a job whose program succeeded and whose stage-out failed.",
      "Only the steps that did not commit run again (the stage-out ledger in the target database skips the others, so no row arrives twice); the job goes through STAGING_OUT to SUCCEEDED or FAILED. Other jobs are refused (exit 1)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry retry-stage-out 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", ExitCodes.HELP})
final class RetryStageOutCommand extends JobChangeCommand {
  @Override
  JobStatus ask(JobManagement server, String jobId) throws Exception {
    return server.retryStageOut(jobId);
  }
}
