package io.gantry.cli;

import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobStatus;
import picocli.CommandLine.Command;

/** {@code gantry release ID}: the SOAP operation {@code releaseJob}. */
@Command(
    name = "release",
    mixinStandardHelpOptions = true,
    description = {
      "Release a held job: it queues again once the jobs it depends on allow.",
      "A job that is not held is refused (exit 1)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry release 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", ExitCodes.HELP})
final class ReleaseCommand extends JobChangeCommand {
  @Override
  JobStatus ask(JobManagement server, String jobId) throws Exception {
    return server.releaseJob(jobId);
  }
}
