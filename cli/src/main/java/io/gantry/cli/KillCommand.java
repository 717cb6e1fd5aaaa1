package io.gantry.cli;

import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobStateFault;
import io.gantry.cli.soap.JobStatus;
import picocli.CommandLine.Command;

/** {@code gantry kill ID}: stops a running job; answers once it has ended. */
@Command(
    name = "kill",
    mixinStandardHelpOptions = true,
    description = {
      "Kill a running job (SIGTERM to its processes, SIGKILL after the "
          + "server's grace period): it ends KILLED.",
      "A job that has not started is withdrawn with 'gantry cancel' (exit 1 here)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry kill 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", ExitCodes.HELP})
final class KillCommand extends JobChangeCommand {
  @Override
  JobStatus ask(JobManagement server, String jobId) throws Exception {
    try {
      return server.killJob(jobId);
    } catch (JobStateFault e) {
      throw WrongVerb.explain(e, jobId, "cancel", "its program has not started");
    }
  }
}
